package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.CircuitState;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One failing message's whole story as the dashboard tells it, the story docs/failure-handling.md
 * walks through with these screenshots ({@code target/screenshots/<store>-journey-*.png}): a
 * dependency failure retried, a handler timeout retried, a worker that vanished (its lease ran
 * out), then poison at the next lease; the message's timeline shows each delivery in order, the
 * dead letters group it by cause, a retry of the group puts it back, and the completed message
 * keeps its whole story.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class FailureJourneyBrowserTest extends BrowserTestBase {
  private static final String STACK =
      "java.net.ConnectException: Connection refused: smtp.example.com:25\n"
          + "\tat java.base/sun.nio.ch.Net.connect0(Native Method)\n"
          + "\tat shop.mail.SmtpClient.send(SmtpClient.java:57)\n"
          + "\tat shop.mail.SendReceipt.handle(SendReceipt.java:31)\n";

  @AfterEach
  void desktopAgain() {
    ui.desktop();
  }

  @Test
  void failingMessage_isToldFromFirstAttemptToDeadLetterAndBack() {
    String q =
        queue(
            "receipts",
            QueuePolicy.defaults().withMaxAttempts(3).withCompletedRetention(Duration.ofDays(1)));
    String id =
        redrive
            .enqueue(
                NewMessage.builder(q, "send-receipt").payload("{\"order\":\"A-1042\"}").build())
            .id();

    // Attempt 1: the mail server refused the connection; retried at once for the picture.
    LeasedMessage first = lease(q, "mailer-7f9c", Duration.ofSeconds(30)).leased().get(0);
    redrive.fail(
        FailRequest.of(
                first.token(),
                FailureReason.TRANSPORT_UNAVAILABLE,
                "Connection refused: smtp.example.com:25")
            .withStackTrace(STACK)
            .withRetryAfter(Duration.ZERO));
    // Attempt 2: the handler ran past its timeout.
    LeasedMessage second = lease(q, "mailer-7f9c", Duration.ofSeconds(30)).leased().get(0);
    redrive.fail(
        FailRequest.of(
                second.token(), FailureReason.TIMEOUT_EXCEEDED, "handler ran past its 30s timeout")
            .withRetryAfter(Duration.ZERO));
    // Attempt 3: the worker vanished; its short lease runs out and the next lease finds it.
    assertThat(lease(q, "mailer-b21e", Duration.ofMillis(300)).leased()).hasSize(1);
    LeaseResult poisoned =
        Awaitility.await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () -> lease(q, "mailer-7f9c", Duration.ofSeconds(30)),
                r -> r.poisoned().contains(id));
    assertThat(poisoned.poisoned()).containsExactly(id);
    assertThat(redrive.getMessage(id).state()).isEqualTo(MessageState.DEAD);

    ui.open("/ui").signIn(ADMIN_KEY).open("/ui/messages/" + id);
    ui.screenshot("journey-message");
    assertThat(ui.timeline().stream().map(DashboardUi.TimelineEntry::outcome).toList())
        .containsExactly("FAILED", "FAILED", "LEASE_EXPIRED", "POISONED");

    ui.viewport(1280, 320, false); // the pages below are short: no empty half in the pictures
    ui.open("/ui/queues/" + q + "/dead");
    ui.screenshot("journey-dead-groups");
    assertThat(ui.all("article.group")).hasSize(1);

    ui.clickAndWait("article.group a.retry-group");
    ui.screenshot("journey-confirm");
    assertThat(ui.text("#dry-run-count")).isEqualTo("1");
    ui.clickAndWait("#confirm");
    ui.awaitPresent("#job[data-status='done']");
    ui.desktop();
    assertThat(redrive.getMessage(id).state()).isEqualTo(MessageState.READY);
    assertThat(redrive.getMessage(id).attempts()).as("a retry resets the attempts").isZero();

    LeasedMessage again = lease(q, "mailer-7f9c", Duration.ofSeconds(30)).leased().get(0);
    redrive.complete(again.token());
    ui.viewport(1280, 1000, false);
    ui.open("/ui/messages/" + id);
    ui.screenshot("journey-completed");
    assertThat(ui.timeline().stream().map(DashboardUi.TimelineEntry::outcome).toList())
        .as("the completed message keeps its whole story")
        .containsExactly("FAILED", "FAILED", "LEASE_EXPIRED", "POISONED", "RETRIED", "COMPLETED");
    assertThat(browser.console()).as("console").isEmpty();
  }

  @Test
  void dependencyOutage_isABannerOnTheQueuePage_andItsMessagesWaitWithoutAttempts() {
    String q =
        queue(
            "payments",
            QueuePolicy.defaults()
                .withMaxAttempts(3)
                .withCircuit(CircuitPolicy.defaults().withFailures(2)));
    for (int i = 0; i < 6; i++) {
      redrive.enqueue(
          NewMessage.builder(q, "charge").payload("{\"order\":\"B-" + i + "\"}").build());
    }
    for (LeasedMessage m : redrive.lease(LeaseRequest.of(q, "payer-1", 2)).leased()) {
      redrive.fail(
          FailRequest.of(
                  m.token(),
                  FailureReason.TRANSPORT_UNAVAILABLE,
                  "Connection refused: payments.example.com:443")
              .withDependency("payments-api"));
    }
    assertThat(redrive.circuits(q))
        .singleElement()
        .extracting(c -> c.state())
        .isEqualTo(CircuitState.OPEN);
    assertThat(redrive.lease(LeaseRequest.of(q, "payer-1", 10)).leased())
        .as("the other charges wait for the probe, their attempts unused")
        .isEmpty();

    ui.open("/ui").signIn(ADMIN_KEY).open("/ui/queues/" + q);
    ui.viewport(1280, 420, false);
    ui.open("/ui/queues/" + q);
    ui.screenshot("journey-circuit");
    assertThat(ui.text("#circuit-payments-api"))
        .contains("payments-api")
        .contains("next probe")
        .contains("6 messages held");
    assertThat(browser.console()).as("console").isEmpty();
  }

  private static LeaseResult lease(String q, String worker, Duration leaseTimeout) {
    return redrive.lease(new LeaseRequest(q, worker, 1, leaseTimeout));
  }
}
