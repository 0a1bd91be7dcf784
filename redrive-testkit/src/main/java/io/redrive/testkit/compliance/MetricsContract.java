package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.OnDuplicate;
import io.redrive.queue.DeadLetter;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's meters ({@code Redrive.builder(store).meterRegistry(…)}) move for every path, with
 * what the store reports: enqueued, leased, completed, failed by reason, retried (automatic and
 * manual), dead by reason (a settle, poison at lease, expiry at lease or by the sweep), discarded,
 * redriven, and the lease-to-settle and enqueue-to-lease timers, timed by the engine's clock.
 */
public abstract class MetricsContract extends ComplianceTestBase {
  private SimpleMeterRegistry meters;

  @BeforeEach
  void meterTheEngine() {
    meters = new SimpleMeterRegistry();
    redrive = Redrive.builder(store).clock(clock).meterRegistry(meters).build();
  }

  private double count(String name, String... tags) {
    Counter c = meters.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  private Timer timer(String name, String... tags) {
    Timer t = meters.find(name).tags(tags).timer();
    assertThat(t).as("%s %s", name, List.of(tags)).isNotNull();
    return t;
  }

  @Test
  void enqueue_countsNewMessagesPerQueueNotDuplicates_alsoOnCallersConnection() throws Exception {
    createQueue(QUEUE);
    createQueue(OTHER);
    enqueue(newMessage(QUEUE).dedupeKey("k").build());
    enqueue(newMessage(QUEUE).dedupeKey("k").build());
    enqueue(OTHER);
    try (Connection connection = db.connect()) {
      connection.setAutoCommit(false);
      redrive.enqueue(connection, newMessage(QUEUE).build());
      connection.commit();
    }

    assertThat(count("redrive.messages.enqueued", "queue", QUEUE)).isEqualTo(2.0);
    assertThat(count("redrive.messages.enqueued", "queue", OTHER)).isEqualTo(1.0);
  }

  @Test
  void scheduleFirings_countAsEnqueued_butADueTimeProducedAlreadyDoesNot() {
    createQueue(QUEUE);
    redrive
        .schedules()
        .save(
            io.redrive.schedule.Schedule.builder(
                    "every-minute",
                    io.redrive.schedule.ScheduleSpec.every(Duration.ofMinutes(1)),
                    io.redrive.schedule.ScheduleTarget.message(QUEUE, TYPE, PAYLOAD))
                .build());
    advance(Duration.ofMinutes(1));
    List<io.redrive.schedule.Firing> fired = redrive.schedules().fireDue(10);
    assertThat(fired).singleElement().satisfies(f -> assertThat(f.queue()).isEqualTo(QUEUE));
    assertThat(count("redrive.messages.enqueued", "queue", QUEUE)).isEqualTo(1.0);

    advance(Duration.ofSeconds(1)); // a trigger time of its own, not the due time just fired
    assertThat(redrive.schedules().triggerNow("every-minute").created()).isTrue();
    assertThat(redrive.schedules().triggerNow("every-minute").created())
        .as("the same trigger time: the message it produced already")
        .isFalse();
    assertThat(count("redrive.messages.enqueued", "queue", QUEUE)).isEqualTo(2.0);
  }

  @Test
  void enqueue_keptOrReplacedUniqueKeyDuplicates_notCounted() {
    createQueue(QUEUE);
    enqueue(newMessage(QUEUE).uniqueKey("u").build());
    enqueue(newMessage(QUEUE).uniqueKey("u").build());
    enqueue(newMessage(QUEUE).uniqueKey("u").onDuplicate(OnDuplicate.REPLACE).build());
    enqueue(newMessage(QUEUE).uniqueKey("d").debounce(Duration.ofSeconds(1)).build());
    enqueue(newMessage(QUEUE).uniqueKey("d").debounce(Duration.ofSeconds(1)).build());

    assertThat(count("redrive.messages.enqueued", "queue", QUEUE)).isEqualTo(2.0);
  }

  @Test
  void leaseAndComplete_countedAndTimedByTheEngineClock() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 3);
    advance(Duration.ofSeconds(5));
    List<LeasedMessage> leased = lease(QUEUE, 3).leased();
    advance(Duration.ofSeconds(2));

    complete(leased.get(0));
    redrive.completeAll(List.of(leased.get(1).token(), leased.get(2).token()));

    assertThat(count("redrive.messages.leased", "queue", QUEUE)).isEqualTo(3.0);
    assertThat(count("redrive.messages.completed", "queue", QUEUE)).isEqualTo(3.0);
    Timer waited = timer("redrive.messages.enqueue.to.lease", "queue", QUEUE);
    assertThat(waited.count()).isEqualTo(3);
    assertThat(waited.totalTime(TimeUnit.SECONDS)).isEqualTo(15.0);
    Timer held = timer("redrive.messages.lease.to.settle", "queue", QUEUE, "outcome", "completed");
    assertThat(held.count()).isEqualTo(3);
    assertThat(held.totalTime(TimeUnit.SECONDS)).isEqualTo(6.0);
  }

  @Test
  void enqueueToLease_onlyFirstDeliveries() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    failRetryAfter(leaseOne(QUEUE), Duration.ofSeconds(1));
    advance(Duration.ofSeconds(1));
    leaseOne(QUEUE);

    assertThat(count("redrive.messages.leased", "queue", QUEUE)).isEqualTo(2.0);
    assertThat(timer("redrive.messages.enqueue.to.lease", "queue", QUEUE).count()).isEqualTo(1);
  }

  @Test
  void fail_countsReasonAndWhatBecameOfTheMessage() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 4);
    List<LeasedMessage> leased = lease(QUEUE, 4).leased();

    fail(leased.get(0), FailureReason.DEPENDENCY_FAILURE);
    failPermanently(leased.get(1));
    redrive.failAll(
        List.of(
            FailRequest.of(leased.get(2).token(), FailureReason.DEPENDENCY_FAILURE, "x"),
            FailRequest.of(leased.get(3).token(), FailureReason.VALIDATION_FAILURE, "x")));

    assertThat(count("redrive.messages.failed", "queue", QUEUE, "reason", "DEPENDENCY_FAILURE"))
        .isEqualTo(2.0);
    assertThat(count("redrive.messages.failed", "queue", QUEUE, "reason", "VALIDATION_FAILURE"))
        .isEqualTo(2.0);
    assertThat(count("redrive.messages.retried", "queue", QUEUE, "kind", "automatic"))
        .isEqualTo(2.0);
    assertThat(count("redrive.messages.dead", "queue", QUEUE, "reason", "VALIDATION_FAILURE"))
        .isEqualTo(2.0);
    assertThat(meters.find("redrive.messages.discarded").counter()).isNull();
    assertThat(
            timer("redrive.messages.lease.to.settle", "queue", QUEUE, "outcome", "failed").count())
        .isEqualTo(4);
  }

  @Test
  void failUnregisteredHandler_countedAsFailureThatRetries() {
    createQueue(QUEUE);
    enqueue(QUEUE);

    redrive.fail(FailRequest.of(leaseOne(QUEUE).token(), FailureReason.UNREGISTERED_HANDLER, null));

    assertThat(count("redrive.messages.failed", "queue", QUEUE, "reason", "UNREGISTERED_HANDLER"))
        .isEqualTo(1.0);
    assertThat(count("redrive.messages.retried", "queue", QUEUE, "kind", "automatic"))
        .isEqualTo(1.0);
  }

  @Test
  void deadInDiscardQueue_countedDeadAndDiscarded() {
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.discard()));
    enqueue(QUEUE);

    failPermanently(leaseOne(QUEUE));

    assertThat(count("redrive.messages.dead", "queue", QUEUE, "reason", "VALIDATION_FAILURE"))
        .isEqualTo(1.0);
    assertThat(count("redrive.messages.discarded", "queue", QUEUE, "reason", "VALIDATION_FAILURE"))
        .isEqualTo(1.0);
  }

  @Test
  void poisonAtLease_countedDeadAndDiscardedFromTheLeaseResult() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    createQueue(OTHER, defaults().withMaxAttempts(1).withDeadLetter(DeadLetter.discard()));
    enqueue(QUEUE);
    enqueue(OTHER);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    leaseOne(OTHER, Duration.ofSeconds(1));
    advance(Duration.ofSeconds(1));

    assertThat(lease(QUEUE, 1).poisoned()).hasSize(1);
    assertThat(lease(OTHER, 1).poisoned()).hasSize(1);

    assertThat(count("redrive.messages.dead", "queue", QUEUE, "reason", "POISON")).isEqualTo(1.0);
    assertThat(count("redrive.messages.discarded", "queue", QUEUE, "reason", "POISON")).isZero();
    assertThat(count("redrive.messages.dead", "queue", OTHER, "reason", "POISON")).isEqualTo(1.0);
    assertThat(count("redrive.messages.discarded", "queue", OTHER, "reason", "POISON"))
        .isEqualTo(1.0);
  }

  @Test
  void expiry_atLeaseAndBySweep_countedDeadAsExpired() {
    Duration deadline = Duration.ofMinutes(1);
    createQueue(QUEUE, defaults().withExpireAfter(deadline));
    createQueue(OTHER, defaults().withExpireAfter(deadline).withDeadLetter(DeadLetter.discard()));
    enqueue(QUEUE);
    enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build());
    enqueue(OTHER);
    advance(deadline);

    assertThat(lease(QUEUE, 1).expired()).hasSize(1);
    assertThat(redrive.expireDue()).isEqualTo(2);

    assertThat(count("redrive.messages.dead", "queue", QUEUE, "reason", "EXPIRED")).isEqualTo(2.0);
    assertThat(count("redrive.messages.dead", "queue", OTHER, "reason", "EXPIRED")).isEqualTo(1.0);
    assertThat(count("redrive.messages.discarded", "queue", OTHER, "reason", "EXPIRED"))
        .isEqualTo(1.0);
  }

  @Test
  void manualRetryAndRedrive_counted_dryRunNot() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withDeadLetter(DeadLetter.moveTo(DLQ)));
    createQueue(OTHER);
    enqueueAndKill(QUEUE);
    enqueueAndKill(QUEUE);
    String kept = enqueueAndKill(OTHER);

    redrive.retry(kept);
    redrive.redrive(RedriveRequest.all(DLQ).withDryRun(true));
    redrive.redrive(RedriveRequest.all(DLQ));

    assertThat(count("redrive.messages.retried", "queue", OTHER, "kind", "manual")).isEqualTo(1.0);
    assertThat(count("redrive.messages.redriven", "queue", DLQ, "to", QUEUE)).isEqualTo(2.0);
  }

  @Test
  void retryNow_countedAsKindNow_skippedNot() {
    createQueue(QUEUE);
    String waiting = enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build());
    String ready = enqueue(QUEUE);

    redrive.retryNow(List.of(waiting, ready), "ops");

    assertThat(count("redrive.messages.retried", "queue", QUEUE, "kind", "now")).isEqualTo(1.0);
  }

  @Test
  void abandonAndRelease_timedByOutcome() {
    createQueue(QUEUE);
    enqueueMany(QUEUE, 2);
    List<LeasedMessage> leased = lease(QUEUE, 2).leased();
    advance(Duration.ofSeconds(4));

    redrive.abandon(new AbandonRequest(leased.get(0).token(), Duration.ZERO, false, null));
    redrive.release(List.of(leased.get(1).token()));

    assertThat(
            timer("redrive.messages.lease.to.settle", "queue", QUEUE, "outcome", "abandoned")
                .totalTime(TimeUnit.SECONDS))
        .isEqualTo(4.0);
    assertThat(
            timer("redrive.messages.lease.to.settle", "queue", QUEUE, "outcome", "released")
                .count())
        .isEqualTo(1);
  }
}
