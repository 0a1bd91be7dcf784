package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveKind;
import io.redrive.queue.QueuePolicy;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's objectives card on the overview and the queue page, and the queue's read-only
 * what-if page.
 */
class ObjectiveDashboardTest {
  @TempDir static Path dir;
  private static TestServers.Keyed server;
  private static Redrive redrive;

  @BeforeAll
  static void start() {
    server = TestServers.keyed(dir);
    redrive = server.redrive();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void overviewAndQueuePage_showTheObjectivesCard() throws Exception {
    redrive.createQueue("slo-orders", QueuePolicy.defaults());
    redrive
        .objectives()
        .save(
            new Objective(
                "orders-start",
                "slo-orders",
                null,
                null,
                ObjectiveKind.LATENCY,
                0.95,
                Duration.ofMinutes(1),
                Duration.ofHours(1)));
    redrive.enqueue(NewMessage.builder("slo-orders", "t").build());
    redrive.lease(LeaseRequest.of("slo-orders", "w", 1));

    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    assertThat(ada.get("/ui").body())
        .contains("id=\"objectives\"")
        .contains("data-objective=\"orders-start\"")
        .contains("0 of 1 breached");
    assertThat(ada.get("/ui/queues/slo-orders").body())
        .contains("id=\"objectives\"")
        .contains("95.00 % of slo-orders start within 1m over 1h")
        .contains("100.00 %")
        .contains("<span class=\"badge running\">ok</span>")
        .contains("id=\"what-if-link\"");
  }

  @Test
  void whatIfPage_replaysTheQueueUnderTheFormsPolicy() throws Exception {
    redrive.createQueue("slo-jobs", QueuePolicy.defaults().withMaxAttempts(1));
    redrive.enqueue(NewMessage.builder("slo-jobs", "t").build());
    LeasedMessage m = redrive.lease(LeaseRequest.of("slo-jobs", "w", 1)).leased().get(0);
    redrive.fail(FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "boom"));

    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    String form = ada.get("/ui/queues/slo-jobs/what-if").body();
    assertThat(form).contains("id=\"what-if-form\"").doesNotContain("id=\"what-if-report\"");
    String report =
        ada.get("/ui/queues/slo-jobs/what-if?since=1h&maxAttempts=3&backoff=fixed:1s&maxCrashes=0")
            .body();
    assertThat(report)
        .contains("Replayed 1 stories")
        .contains(
            "<tr data-end=\"DEAD_ATTEMPTS\"><td>dead attempts</td><td class=\"num\">1</td><td class=\"num\">1</td></tr>")
        .contains("id=\"what-if-assumed\"");
  }
}
