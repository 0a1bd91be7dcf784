package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.deadletter.DeadGroup;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * Dead letters grouped by cause in Chromium on each store: a group shows the right count, and
 * retrying it through the confirmation empties it and makes its messages ready; a viewer sees the
 * groups without buttons and a forged action is refused.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DeadGroupsBrowserTest extends BrowserTestBase {

  /** Kills {@code n} messages of {@code queue} with {@code error} plus a varying number. */
  private static void kill(String queue, int n, String error, String frame) {
    for (int i = 0; i < n; i++) {
      redrive.enqueue(NewMessage.builder(queue, "charge").payload("{\"order\":" + i + "}").build());
    }
    int i = 0;
    for (LeasedMessage m : redrive.lease(LeaseRequest.of(queue, "w-1", n)).leased()) {
      redrive.fail(
          FailRequest.of(
                  m.token(), FailureReason.HANDLER_EXCEPTION, error + " " + (4000 + 37 * i++))
              .withStackTrace(
                  "java.lang.IllegalStateException: x\n\tat " + frame + "(Pay.java:88)\n"));
    }
  }

  private static DeadGroup group(String queue, String frame) {
    return redrive.deadGroups(queue, 100).groups().stream()
        .filter(g -> g.pieces().frames().contains(frame))
        .findFirst()
        .orElseThrow();
  }

  private WebElement card(String fingerprint) {
    return ui.find("article.group[data-fingerprint='" + fingerprint + "']");
  }

  @Test
  void groups_showTheirCounts_andRetryingOneEmptiesIt() {
    String q = queue("groups", QueuePolicy.defaults().withMaxAttempts(1));
    kill(q, 6, "card declined for order", "shop.Pay.charge");
    kill(q, 3, "gateway timeout after", "shop.Gateway.call");
    DeadGroup declined = group(q, "shop.Pay.charge");
    DeadGroup timeout = group(q, "shop.Gateway.call");

    ui.open("/ui").signIn(ADMIN_KEY).open("/ui/queues/" + q + "/dead");
    ui.screenshot("dead-groups");
    assertThat(card(declined.fingerprint()).findElement(By.cssSelector(".count")).getText())
        .isEqualTo("6");
    assertThat(card(timeout.fingerprint()).findElement(By.cssSelector(".count")).getText())
        .isEqualTo("3");
    assertThat(card(declined.fingerprint()).getText()).contains("card declined for order <n>");

    ui.clickAndWait(
        "article.group[data-fingerprint='" + declined.fingerprint() + "'] a.retry-group");
    ui.screenshot("confirm");
    assertThat(ui.text("#dry-run-count")).isEqualTo("6");
    assertThat(redrive.stats(q).dead()).as("the confirmation changes nothing").isEqualTo(9);

    ui.clickAndWait("#confirm");
    ui.awaitPresent("#job[data-status='done']");
    ui.screenshot("job");
    assertThat(ui.text("#job-done")).isEqualTo("6");
    assertThat(redrive.stats(q).dead()).isEqualTo(3);
    assertThat(
            redrive
                .listMessages(
                    MessageQuery.all(q).withStates(EnumSet.of(MessageState.READY)).withLimit(100))
                .messages())
        .hasSize(6)
        .allSatisfy(m -> assertThat(m.attempts()).isZero());

    ui.open("/ui/queues/" + q + "/dead");
    assertThat(ui.has("article.group[data-fingerprint='" + declined.fingerprint() + "']"))
        .isFalse();
    assertThat(ui.has("article.group[data-fingerprint='" + timeout.fingerprint() + "']")).isTrue();
    ui.open("/ui/queues/" + q + "/messages?state=ready");
    assertThat(ui.all("table#messages tr[data-id]")).hasSize(6);
    assertThat(browser.console()).isEmpty();
  }

  @Test
  void acrossQueues_everyGroupIsListed_withItsQueue() {
    String a = queue("across-a", QueuePolicy.defaults().withMaxAttempts(1));
    String b = queue("across-b", QueuePolicy.defaults().withMaxAttempts(1));
    kill(a, 2, "disk full writing", "shop.Files.write");
    kill(b, 4, "disk full writing", "shop.Files.write");

    ui.open("/ui").signIn(ADMIN_KEY).open("/ui/dead");
    ui.screenshot("dead-groups-all");
    assertThat(ui.find("article.group[data-queue='" + a + "'] .count").getText()).isEqualTo("2");
    assertThat(ui.find("article.group[data-queue='" + b + "'] .count").getText()).isEqualTo("4");
  }

  @Test
  void viewer_seesGroupsWithoutButtons_andAForgedRetryIsRefused() {
    String q = queue("viewed", QueuePolicy.defaults().withMaxAttempts(1));
    kill(q, 2, "boom", "shop.Pay.charge");
    DeadGroup g = group(q, "shop.Pay.charge");

    ui.open("/ui").signIn(VIEWER_KEY).open("/ui/queues/" + q + "/dead");
    assertThat(ui.has("article.group[data-fingerprint='" + g.fingerprint() + "']")).isTrue();
    assertThat(ui.has("a.retry-group")).isFalse();
    assertThat(ui.has("a.drop-group")).isFalse();
    int status =
        ui.fetchPost(
            "/ui/actions",
            Map.of(
                "_csrf",
                ui.csrfToken(),
                "op",
                "drop",
                "queue",
                q,
                "fingerprint",
                g.fingerprint(),
                "expected",
                "2"));
    assertThat(status).isEqualTo(403);
    assertThat(redrive.stats(q).dead()).isEqualTo(2);
  }
}
