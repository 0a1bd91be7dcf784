package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A handler running several times longer than the lease keeps it: the worker renews it every {@code
 * leaseTimeout/3}, so the message stays LEASED, is delivered once and nobody else gets it.
 */
public abstract class HeartbeatScenarios extends WorkerScenarioBase {
  private static final Duration SHORT_LEASE = Duration.ofMillis(400);
  private static final Duration RUN = Duration.ofSeconds(2);

  @Test
  void heartbeat_handlerRunsFiveTimesTheLease_keepsLeaseAndIsDeliveredOnce() throws Exception {
    createQueue(QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(SHORT_LEASE));
    String completes = enqueue(TYPE, "complete");
    String dies = enqueue(TYPE, "die");
    Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    Map<String, Integer> attempts = new ConcurrentHashMap<>();
    CountDownLatch bothRunning = new CountDownLatch(2);
    // Two workers: if a lease ran out, the other one would take the message.
    for (int i = 0; i < 2; i++) {
      start(
          worker()
              .concurrency(2)
              .handler(
                  TYPE,
                  ctx -> {
                    deliveries
                        .computeIfAbsent(ctx.id(), k -> new AtomicInteger())
                        .incrementAndGet();
                    attempts.put(ctx.id(), ctx.attempt());
                    bothRunning.countDown();
                    long end = System.nanoTime() + RUN.toNanos();
                    while (System.nanoTime() < end) {
                      Thread.sleep(20); // the handler's work
                    }
                    return ctx.payload().equals("complete")
                        ? HandlerResult.complete()
                        : HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "keep my story");
                  }));
    }

    eventually().until(() -> bothRunning.getCount() == 0);
    List<MessageState> states = new CopyOnWriteArrayList<>();
    List<Instant> expiries = new CopyOnWriteArrayList<>();
    List<Outcome> seenOutcomes = new CopyOnWriteArrayList<>();
    eventually()
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              Optional<Message> m = find(completes);
              m.ifPresent(
                  msg -> {
                    states.add(msg.state());
                    if (expiries.isEmpty()
                        || !expiries.get(expiries.size() - 1).equals(msg.visibleAt())) {
                      expiries.add(msg.visibleAt());
                    }
                    msg.history().forEach(e -> seenOutcomes.add(e.outcome()));
                  });
              return m.isEmpty() || expiries.size() >= 5;
            });
    assertThat(states).containsOnly(MessageState.LEASED);
    assertThat(expiries).hasSizeGreaterThanOrEqualTo(5).isSorted();
    assertThat(Duration.between(expiries.get(0), expiries.get(expiries.size() - 1)))
        .isGreaterThanOrEqualTo(SHORT_LEASE);
    assertThat(seenOutcomes).doesNotContain(Outcome.LEASE_EXPIRED);

    awaitCompleted(completes);
    Message dead = awaitDead(dies);
    assertThat(deliveries.get(completes)).hasValue(1);
    assertThat(deliveries.get(dies)).hasValue(1);
    assertThat(attempts).containsEntry(completes, 1).containsEntry(dies, 1);
    assertThat(dead.history()).extracting(HistoryEntry::outcome).containsExactly(Outcome.FAILED);
    HistoryEntry only = dead.history().get(0);
    assertThat(only.attempt()).isEqualTo(1);
    assertThat(Duration.between(only.leasedAt(), only.settledAt())).isGreaterThanOrEqualTo(RUN);
  }
}
