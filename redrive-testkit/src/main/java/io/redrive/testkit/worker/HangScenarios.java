package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerRegistration;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Handlers that never return. With a per-type timeout the attempt is failed as TIMEOUT_EXCEEDED,
 * the handler thread interrupted and its slot freed even if it ignores the interrupt; without one,
 * the lease is renewed only up to {@code maxRenewal}, then expires, and the message is delivered
 * again (counted) until it is poisoned. Either way the other messages of the queue keep flowing.
 */
public abstract class HangScenarios extends WorkerScenarioBase {
  private static final Duration TIMEOUT = Duration.ofMillis(300);

  @Test
  void timeout_handlerLoopsForever_failedAsTimeoutExceededAndInterrupted() {
    createQueue(fastPolicy().withMaxAttempts(2));
    AtomicInteger interrupts = new AtomicInteger();
    AtomicBoolean cancelledSeen = new AtomicBoolean();
    String id = enqueue(TYPE);

    start(
        worker()
            .handler(
                HandlerRegistration.of(
                        TYPE,
                        ctx -> {
                          while (true) {
                            try {
                              Thread.sleep(5);
                            } catch (InterruptedException e) {
                              interrupts.incrementAndGet();
                              cancelledSeen.set(ctx.isCancelled());
                              throw e;
                            }
                          }
                        })
                    .withTimeout(TIMEOUT)));

    Message dead = awaitDead(id);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.TIMEOUT_EXCEEDED);
    List<HistoryEntry> failed = entries(dead, Outcome.FAILED);
    assertThat(failed)
        .extracting(e -> e.failure().reason())
        .containsOnly(FailureReason.TIMEOUT_EXCEEDED);
    assertThat(failed).extracting(HistoryEntry::attempt).containsExactly(1, 2);
    assertThat(failed.get(0).failure().message()).contains("timeout");
    assertThat(Duration.between(failed.get(0).leasedAt(), failed.get(0).settledAt()))
        .isGreaterThanOrEqualTo(TIMEOUT);
    eventually().until(() -> interrupts.get() == 2);
    assertThat(cancelledSeen).isTrue();
  }

  @Test
  void timeout_handlerSpinsIgnoringInterrupts_failedAndSlotFreedForOtherMessages() {
    createQueue(fastPolicy().withMaxAttempts(1));
    AtomicInteger spins = new AtomicInteger();
    String spinner = enqueue("spin");
    List<String> healthy = enqueueMany(TYPE, 5);

    start(
        worker()
            .concurrency(1)
            .handler(
                HandlerRegistration.of(
                        "spin",
                        ctx -> {
                          spins.incrementAndGet();
                          spinIgnoringInterrupts();
                          return HandlerResult.complete();
                        })
                    .withTimeout(TIMEOUT))
            .handler(TYPE, ctx -> HandlerResult.complete()));

    Message dead = awaitDead(spinner);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.TIMEOUT_EXCEEDED);
    assertThat(last(dead).failure().reason()).isEqualTo(FailureReason.TIMEOUT_EXCEEDED);
    awaitCompleted(healthy);
    assertThat(spins).hasValue(1);
  }

  @Test
  void noTimeout_handlerHangs_leaseExpiresAfterMaxRenewalUntilPoisonWhileOthersFlow() {
    createQueue(
        QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(Duration.ofMillis(300)));
    AtomicInteger deliveries = new AtomicInteger();
    String stuck = enqueue("stuck");
    List<String> healthy = enqueueMany(TYPE, 50);
    AtomicInteger completions = new AtomicInteger();

    start(
        worker()
            .concurrency(8)
            .maxRenewal(Duration.ofSeconds(1))
            .handler(
                "stuck",
                ctx -> {
                  deliveries.incrementAndGet();
                  blockIgnoringInterrupts();
                  return HandlerResult.complete();
                })
            .handler(
                TYPE,
                ctx -> {
                  completions.incrementAndGet();
                  return HandlerResult.complete();
                }));

    awaitCompleted(healthy);
    assertThat(completions).hasValue(50);
    Message dead = awaitDead(stuck);
    assertThat(deliveries).hasValue(3);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(dead.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(
            Outcome.LEASE_EXPIRED, Outcome.LEASE_EXPIRED, Outcome.LEASE_EXPIRED, Outcome.POISONED);
    assertThat(entries(dead, Outcome.LEASE_EXPIRED))
        .extracting(HistoryEntry::attempt)
        .containsExactly(1, 2, 3);
    HistoryEntry first = dead.history().get(0);
    assertThat(Duration.between(first.leasedAt(), first.settledAt()))
        .as("the lease was renewed up to maxRenewal before it expired")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    assertThat(last(dead).failure().attempt()).isEqualTo(4);
  }

  @Test
  void noTimeout_hungHandlersAfterMaxRenewal_doNotKeepTheirSlots() {
    createQueue(
        QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(Duration.ofMillis(300)));
    AtomicInteger deliveries = new AtomicInteger();
    String stuck = enqueue("stuck");

    start(
        worker()
            .concurrency(2)
            .maxRenewal(Duration.ofMillis(600))
            .handler(
                "stuck",
                ctx -> {
                  deliveries.incrementAndGet();
                  blockIgnoringInterrupts();
                  return HandlerResult.complete();
                })
            .handler(TYPE, ctx -> HandlerResult.complete()));

    // Three hung deliveries on a worker with two slots: each slot must come back once the worker
    // gives up on its lease, or the third delivery (and everything after it) never happens.
    Message dead = awaitDead(stuck);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(deliveries).hasValue(3);
    List<String> healthy = enqueueMany(TYPE, 10);
    awaitCompleted(healthy);
  }

  @Test
  void noTimeout_streamHeadHangs_laterMessagesOfItsRunNotCharged() {
    createQueue(
        QueuePolicy.defaults().withRetry(2, COOLDOWN).withLeaseTimeout(Duration.ofMillis(300)));
    String head = enqueueInStream("stuck", "s", "head");
    String second = enqueueInStream(TYPE, "s", "second");
    String third = enqueueInStream(TYPE, "s", "third");
    List<String> seen = new CopyOnWriteArrayList<>();

    start(
        worker()
            .concurrency(4)
            .maxRenewal(Duration.ofMillis(600))
            .handler(
                "stuck",
                ctx -> {
                  seen.add(ctx.payload() + "@" + ctx.attempt());
                  blockIgnoringInterrupts();
                  return HandlerResult.complete();
                })
            .handler(
                TYPE,
                ctx -> {
                  seen.add(ctx.payload() + "@" + ctx.attempt());
                  return HandlerResult.complete();
                }));

    awaitCompleted(List.of(second, third));
    assertThat(message(head).deadReason()).isEqualTo(FailureReason.POISON);
    // The later messages were leased with the head but never started: given back refunded, so
    // their first run is attempt 1.
    assertThat(seen).containsExactly("head@1", "head@2", "second@1", "third@1");
  }
}
