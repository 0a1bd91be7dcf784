package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.CircuitState;
import io.redrive.queue.CircuitStatus;
import io.redrive.worker.DependencyFailureException;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A dependency's outage with real workers: a handler fails against {@code smtp} while it is down
 * and other messages succeed; the circuit opens at its threshold, no attempt is burnt beyond the
 * threshold's first failures, nothing dies, and after the outage the circuit probes, ramps and
 * closes and the backlog drains.
 */
public abstract class CircuitScenarios extends WorkerScenarioBase {
  private static final String MAIL = "send-mail";
  private static final String OTHER = "resize-image";

  @Test
  void outage_circuitOpens_nothingPoisoned_thenClosesAndTheBacklogDrains() {
    createQueue(
        fastPolicy()
            .withRetry(10, COOLDOWN)
            .withCircuit(
                new CircuitPolicy(
                    3, Duration.ofSeconds(30), Duration.ofMillis(200), List.of(1, 2, 4), false)));
    AtomicBoolean smtpDown = new AtomicBoolean(true);
    List<String> mail = enqueueMany(MAIL, 12);
    start(
        worker()
            .concurrency(4)
            .handler(
                MAIL,
                ctx -> {
                  if (smtpDown.get()) {
                    throw new DependencyFailureException("smtp", "connection refused");
                  }
                  return HandlerResult.complete();
                })
            .handler(OTHER, ctx -> HandlerResult.complete()));

    eventually().until(() -> state("smtp") == CircuitState.OPEN);
    List<String> others = enqueueMany(OTHER, 10);
    awaitCompleted(others);
    long counted = 0;
    for (String id : mail) {
      Message m = message(id);
      assertThat(m.state()).isNotEqualTo(MessageState.DEAD);
      counted +=
          m.history().stream().map(HistoryEntry::outcome).filter(Outcome.FAILED::equals).count();
    }
    assertThat(counted).as("attempts used by failures: the threshold's first").isEqualTo(3);

    smtpDown.set(false);
    awaitCompleted(mail);
    eventually().until(() -> state("smtp") == CircuitState.CLOSED);
  }

  private CircuitState state(String dependency) {
    return redrive.circuits(QUEUE).stream()
        .filter(c -> c.dependency().equals(dependency))
        .map(CircuitStatus::state)
        .findFirst()
        .orElse(CircuitState.CLOSED);
  }
}
