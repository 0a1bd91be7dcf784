package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.deadletter.DeadGroup;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every dashboard page at a phone's width (390 CSS pixels, emulated as a phone) on each store,
 * filled with long ids, long error messages, stack traces and unbroken tokens: no page is wider
 * than the screen (a wide table scrolls inside its own box), the message list's rows stay a line or
 * two high, and each page is kept as a screenshot {@code phone-<page>-<store>}.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PhoneWidthBrowserTest extends BrowserTestBase {
  static final int PHONE_WIDTH = 390;
  private static final int PHONE_HEIGHT = 844;
  private static final int MESSAGES = 30;
  private static final String LONG_TOKEN = "x".repeat(180);
  private static final String ERROR =
      "card declined by the payment gateway for order 4037 after three tries: "
          + "gateway.example.com/v2/charges/ch_3NqFz2LkdIqHf81x0aB9cDeF said insufficient_funds";
  private static final String STACK =
      "java.lang.IllegalStateException: "
          + ERROR
          + "\n\tat shop.payments.gateway.internal.ChargeClient.submitChargeWithIdempotencyKey"
          + "(ChargeClient.java:212)\n\tat shop.payments.Pay.charge(Pay.java:88)\n";

  @AfterEach
  void desktopAgain() {
    ui.desktop();
  }

  @Test
  void everyPage_fitsAPhone_andTheMessageListStaysShort() {
    // A dead-letter queue, so that its pages show the longest buttons and the source's attempts.
    String q = queue("phone-queue-with-a-rather-long-name", QueuePolicy.defaults());
    String source =
        queue(
            "phone-source-queue-with-a-long-name",
            QueuePolicy.defaults().withMaxAttempts(1).withDeadLetter(DeadLetter.moveTo(q)));
    killAll(source);
    String id = redrive.listMessages(MessageQuery.all(q).withLimit(1)).messages().get(0).id();
    redrive.enqueue(NewMessage.builder(q, "ready-one").payload("{}").build());
    DeadGroup group = redrive.deadGroups(q, 10).groups().get(0);

    ui.signIn(ADMIN_KEY);
    ui.phone(PHONE_WIDTH, PHONE_HEIGHT);
    fits("overview", "/ui");
    assertThat(ui.find("#live-bar").isDisplayed()).as("the live bar, on a phone too").isTrue();
    fits("overview-24h", "/ui?range=24h");
    fits("queue", "/ui/queues/" + q);
    fits("queue-24h", "/ui/queues/" + q + "?range=24h");
    fits("messages", "/ui/queues/" + q + "/messages");
    assertThat(ui.all("table#messages tr[data-id]")).hasSize(MESSAGES + 1);
    for (var row : ui.all("table#messages tr[data-id]")) {
      assertThat(row.getRect().getHeight()).as("height of a message's row").isLessThan(80);
    }
    assertThat(pageHeight())
        .as("the message list's height, %d rows", MESSAGES + 1)
        .isLessThan(80 * (MESSAGES + 1) + 1_000);
    assertThat(ui.find("table#messages td.id a").getRect().getHeight())
        .as("an id stays on one line")
        .isLessThan(30);
    fits("message", "/ui/messages/" + id);
    assertThat(ui.text("#m-attempts")).isEqualTo("0 of 5 here · 1 in " + source);
    ui.find("#timeline details.stack summary").click();
    fits("message-stack", null);
    fits("dead-groups", "/ui/dead");
    fits("dead-groups-queue", "/ui/queues/" + q + "/dead");
    fits("confirm", "/ui/confirm?op=retry&queue=" + q + "&fingerprint=" + group.fingerprint());
    ui.clickAndWait("#confirm");
    ui.awaitPresent("#job[data-status='done']");
    fits("job", null);
    assertThat(browser.console()).as("console").isEmpty();
    fits("not-found", "/ui/queues/no-such-queue-" + LONG_TOKEN.substring(0, 60));
    fits("not-found-path", "/ui/nothing/here");
    ui.forgetSession();
    fits("login", "/ui/login");
    assertThat(browser.console())
        .as("console: the two answers of 404 and nothing else")
        .hasSize(2)
        .allSatisfy(line -> assertThat(line).contains("status of 404"));
  }

  /** Kills {@link #MESSAGES} messages of {@code queue} with long errors. */
  private static void killAll(String queue) {
    for (int i = 0; i < MESSAGES; i++) {
      redrive.enqueue(
          NewMessage.builder(queue, "charge-with-a-long-type-name")
              .payload("{\"order\":" + i + ",\"token\":\"" + LONG_TOKEN + "\"}")
              .headers(Map.of("x-trace", LONG_TOKEN))
              .build());
    }
    for (LeasedMessage m :
        redrive
            .lease(LeaseRequest.of(queue, "worker-" + LONG_TOKEN.substring(0, 40), MESSAGES))
            .leased()) {
      redrive.fail(
          FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, ERROR + " " + LONG_TOKEN)
              .withRetryable(false)
              .withStackTrace(STACK));
    }
  }

  /**
   * Opens {@code path} (or stays on the current page when null), saves its screenshot and checks
   * that nothing makes the page wider than the phone.
   */
  private void fits(String page, String path) {
    if (path != null) {
      ui.open(path);
    }
    browser.screenshot("phone-" + page + "-" + kind.label());
    assertThat(ui.script("return window.innerWidth"))
        .as("%s: the viewport is the phone's, not zoomed out", page)
        .isEqualTo((long) PHONE_WIDTH);
    Object wide =
        ui.script(
            "return document.documentElement.scrollWidth <= window.innerWidth"
                + " ? null : document.documentElement.scrollWidth");
    assertThat(wide).as("%s: page width beyond the phone's %d px", page, PHONE_WIDTH).isNull();
  }

  private long pageHeight() {
    return ((Number) ui.script("return document.documentElement.scrollHeight")).longValue();
  }
}
