package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.testkit.ControllableClock;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A message of a type the worker has no handler for (a rolling deployment) is abandoned with the
 * unregistered-handler backoff, each delivery counted, until a worker handles it or it is poisoned;
 * a worker that leases only its handled types never takes it.
 */
public abstract class UnregisteredTypeScenarios extends WorkerScenarioBase {
  private static final String UNKNOWN = "added-in-next-release";

  private double unregisteredCount() {
    var counter =
        meters
            .find("redrive.messages.failed")
            .tags("queue", QUEUE, "reason", "UNREGISTERED_HANDLER")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  /**
   * Makes a worker naming {@code type} live (docs/engine.md, "Live workers and unserved types"), so
   * the untyped workers' unregistered-handler abandons count their attempts, as they do while some
   * worker could take the message; call it while nothing of the type is visible.
   */
  private static void workerNamingTypeLive(Redrive engine, String type) {
    engine.lease(
        io.redrive.lease.LeaseRequest.of(QUEUE, "new-build", 1).withTypes(java.util.Set.of(type)));
  }

  @Test
  void unknownType_abandonedWithBackoffUntilPoisonWhileKnownTypesRun() {
    createQueue(QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(LEASE));
    Duration base = Duration.ofMillis(20);
    workerNamingTypeLive(redrive, UNKNOWN);
    String unknown = enqueue(UNKNOWN);
    String known = enqueue(TYPE);

    start(
        worker()
            .leaseOnlyHandledTypes(false)
            .unregisteredBackoff(new UnregisteredHandlerBackoff(base, 6, Duration.ofSeconds(1)))
            .handler(TYPE, ctx -> HandlerResult.complete()));

    awaitCompleted(known);
    Message dead = awaitDead(unknown);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(dead.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.ABANDONED, Outcome.ABANDONED, Outcome.ABANDONED, Outcome.POISONED);
    List<HistoryEntry> abandoned = entries(dead, Outcome.ABANDONED);
    assertThat(abandoned).extracting(HistoryEntry::attempt).containsExactly(1, 2, 3);
    assertThat(abandoned)
        .extracting(e -> e.failure().reason())
        .containsOnly(FailureReason.UNREGISTERED_HANDLER);
    assertThat(abandoned.get(0).note()).contains("no handler for type " + UNKNOWN);
    for (int i = 0; i + 1 < abandoned.size(); i++) {
      Duration gap =
          Duration.between(abandoned.get(i).settledAt(), abandoned.get(i + 1).leasedAt());
      assertThat(gap)
          .as("gap after attempt %d", i + 1)
          .isGreaterThanOrEqualTo(base.multipliedBy(1L << i));
    }
    assertThat(unregisteredCount()).isEqualTo(3.0);
  }

  @Test
  void unknownType_defaultBackoffTable_appliedByEngineClock() {
    ControllableClock clock = ControllableClock.startingAtEpochOfTests();
    Redrive engine = Redrive.builder(store).clock(clock).meterRegistry(meters).build();
    engine.createQueue(QUEUE, QueuePolicy.defaults().withMaxAttempts(8));
    workerNamingTypeLive(engine, UNKNOWN);
    String id = engine.enqueue(NewMessage.builder(QUEUE, UNKNOWN).payload("{}").build()).id();
    List<Duration> expected =
        List.of(1, 2, 4, 8, 16, 32, 60, 60).stream().map(s -> Duration.ofSeconds(s)).toList();

    start(
        worker(engine, QUEUE)
            .leaseOnlyHandledTypes(false)
            .handler(TYPE, ctx -> HandlerResult.complete()));

    for (int attempt = 1; attempt <= expected.size(); attempt++) {
      int abandons = attempt;
      eventually()
          .alias("abandon number " + attempt)
          .until(() -> entries(engine.getMessage(id), Outcome.ABANDONED).size() == abandons);
      Message m = engine.getMessage(id);
      Duration delay = expected.get(attempt - 1);
      assertThat(m.state()).isEqualTo(MessageState.SCHEDULED);
      assertThat(m.attempts()).isEqualTo(attempt);
      assertThat(m.visibleAt())
          .as("visibleAt after attempt %d", attempt)
          .isEqualTo(clock.instant().plus(delay));
      assertThat(last(m).failure().reason()).isEqualTo(FailureReason.UNREGISTERED_HANDLER);
      clock.advance(delay);
    }
    eventually().until(() -> engine.getMessage(id).state() == MessageState.DEAD);
    Message dead = engine.getMessage(id);
    assertThat(dead.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(last(dead).failure().attempt()).isEqualTo(9);
    assertThat(entries(dead, Outcome.ABANDONED)).hasSize(8);
    assertThat(unregisteredCount()).isEqualTo(8.0);
  }

  @Test
  void leaseOnlyHandledTypes_unknownTypeNeverLeasedAndServedByAnotherWorker() {
    createQueue(QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(LEASE));
    String unknown = enqueue(UNKNOWN);
    String known = enqueue(TYPE);

    start(
        worker()
            .id("handles-work")
            .leaseOnlyHandledTypes(true)
            .unregisteredBackoff(new UnregisteredHandlerBackoff(COOLDOWN, 6, COOLDOWN))
            .handler(TYPE, ctx -> HandlerResult.complete()));

    awaitCompleted(known);
    // Polls every few ms: without the filter it would have bounced the unknown type by now.
    eventually()
        .during(Duration.ofMillis(300))
        .until(() -> message(unknown).attempts() == 0 && message(unknown).history().isEmpty());
    assertThat(unregisteredCount()).isZero();

    start(
        worker()
            .id("handles-new")
            .leaseOnlyHandledTypes(true)
            .handler(UNKNOWN, ctx -> HandlerResult.complete()));
    awaitCompleted(unknown);
  }

  @Test
  void byDefault_workerLeasesOnlyItsTypes_andIsLiveForThem() {
    createQueue(QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(LEASE));
    String unknown = enqueue(UNKNOWN);
    String known = enqueue(TYPE);

    start(worker().id("defaults").handler(TYPE, ctx -> HandlerResult.complete()));

    awaitCompleted(known);
    eventually()
        .during(Duration.ofMillis(300))
        .until(() -> message(unknown).attempts() == 0 && message(unknown).history().isEmpty());
    assertThat(redrive.queueWorkers(QUEUE).workers())
        .extracting(io.redrive.lease.LiveWorker::types)
        .containsExactly(java.util.Set.of(TYPE));
  }
}
