package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.Keys;

/**
 * A completed message's story, in Chromium on each store: the queue page links to the completed
 * messages it keeps, the list shows the message, its page shows the completion, the worker and
 * every attempt; the id the enqueue returned, typed into the search box, opens it; at phone width
 * neither page overflows.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CompletedStoryBrowserTest extends BrowserTestBase {

  @Test
  void aCompletedMessage_isFoundWithItsWholeStory() {
    String q = queue("kept", QueuePolicy.defaults().withCompletedRetention(Duration.ofDays(1)));
    String id =
        redrive
            .enqueue(
                NewMessage.builder(q, "send-receipt")
                    .payload("{\"order\":42}")
                    .dedupeKey("receipt-42")
                    .build())
            .id();
    LeasedMessage first = redrive.lease(LeaseRequest.of(q, "w-first", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(first.token(), FailureReason.DEPENDENCY_FAILURE, "smtp unreachable")
            .withRetryAfter(Duration.ZERO));
    LeasedMessage second = redrive.lease(LeaseRequest.of(q, "w-second", 1)).leased().get(0);
    redrive.complete(second.token());

    ui.open("/ui/queues/" + q).signIn(ADMIN_KEY);
    assertThat(ui.text("#completed-retention")).contains("kept 1d");
    ui.clickAndWait("#completed-link");
    assertThat(ui.path()).startsWith("/ui/queues/" + q + "/messages");
    assertThat(ui.text("#messages")).contains(id).contains("completed");

    ui.open("/ui/messages/" + id);
    assertThat(ui.text("#m-state")).isEqualToIgnoringCase("completed");
    assertThat(ui.text("#m-attempts")).startsWith("2 of");
    assertThat(ui.text("#m-worker")).isEqualTo("w-second");
    assertThat(ui.has("#m-completed-at")).isTrue();
    assertThat(ui.text(".timeline, #timeline"))
        .contains("smtp unreachable")
        .contains("w-first")
        .contains("completed");
    assertThat(ui.has("#message-actions form")).as("nothing to retry or drop").isFalse();
    ui.screenshot("completed-message");

    ui.open("/ui");
    ui.find("#search").sendKeys(id, Keys.ENTER);
    ui.awaitPresent("#m-state");
    assertThat(ui.path()).startsWith("/ui/messages/" + id);
    ui.open("/ui");
    ui.find("#search").sendKeys("receipt-42", Keys.ENTER);
    ui.awaitPresent("#m-state");
    assertThat(ui.path()).startsWith("/ui/messages/" + id);

    for (String page :
        new String[] {"/ui/messages/" + id, "/ui/queues/" + q + "/messages?state=completed"}) {
      ui.phone(390, 844).open(page);
      assertThat(
              ui.script(
                  "return document.documentElement.scrollWidth <= window.innerWidth"
                      + " ? null : document.documentElement.scrollWidth"))
          .as(page + " at phone width")
          .isNull();
      ui.desktop();
    }
  }
}
