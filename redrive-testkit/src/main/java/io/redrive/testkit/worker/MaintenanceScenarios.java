package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.failure.FailureReason;
import io.redrive.message.Message;
import io.redrive.message.NewMessage;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A worker's deadline sweep: it runs only when the builder asks for it ({@code
 * Worker.Builder.maintenance}), only while the worker runs, and dead-letters as EXPIRED what no
 * lease reaches before its deadline.
 */
public abstract class MaintenanceScenarios extends WorkerScenarioBase {

  @Test
  void maintenanceOptIn_messagePastDeadlineThatNoLeaseReaches_deadAsExpired() {
    createQueue(fastPolicy());
    String scheduled =
        enqueue(
            NewMessage.builder(QUEUE, TYPE)
                .payload("{}")
                .delay(Duration.ofHours(1))
                .expireAfter(Duration.ofMillis(200))
                .build());
    Worker worker =
        start(
            worker()
                .handler(TYPE, ctx -> HandlerResult.complete())
                .maintenance(Duration.ofMillis(20)));

    assertThat(worker.runsMaintenance()).isTrue();
    Message m = awaitDead(scheduled);
    assertThat(m.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(m.attempts()).isZero();
    worker.stop(Duration.ofSeconds(1));
    assertThat(worker.runsMaintenance()).isFalse();
  }

  @Test
  void maintenanceTrue_runsWhileTheWorkerRuns() {
    createQueue(fastPolicy());
    Worker worker =
        start(worker().handler(TYPE, ctx -> HandlerResult.complete()).maintenance(true));

    assertThat(worker.runsMaintenance()).isTrue();
    worker.close();
    assertThat(worker.runsMaintenance()).isFalse();
  }

  @Test
  void maintenance_notAskedFor_workerDoesNotSweep() {
    createQueue(fastPolicy());
    Worker worker = start(worker().handler(TYPE, ctx -> HandlerResult.complete()));

    assertThat(worker.runsMaintenance()).isFalse();
  }

  @Test
  void maintenance_badInterval_refusedNamingIt() {
    assertThatThrownBy(() -> worker().maintenance(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maintenance.interval")
        .hasMessageContaining("PT0S");
  }
}
