package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.queue.QueueStats;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Queue statistics: counts by state, attempts histogram, dead and failure reasons, timings. */
public abstract class StatsContract extends ComplianceTestBase {

  private Instant t0;

  private LeasedMessage enqueueAndLease() {
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, LONG_LEASE);
    assertThat(leased.id()).isEqualTo(id);
    return leased;
  }

  /**
   * At t0: one leased, one whose 10 s lease runs out, two dead (validation; handler after two
   * attempts), one backing off 20 min, two delayed 5 and 10 min, two ready. Then 1 minute passes.
   */
  private QueueStats mixedQueueStats() {
    createQueue(QUEUE);
    t0 = now();
    enqueueAndLease();
    enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(10));
    failPermanently(enqueueAndLease());
    failRetryAfter(enqueueAndLease(), Duration.ZERO);
    redrive.fail(
        FailRequest.of(leaseOne(QUEUE, LONG_LEASE).token(), FailureReason.HANDLER_EXCEPTION, "x")
            .withRetryable(false));
    redrive.fail(
        FailRequest.of(enqueueAndLease().token(), FailureReason.DEPENDENCY_FAILURE, "db")
            .withRetryAfter(Duration.ofMinutes(20)));
    enqueue(newMessage(QUEUE).delay(Duration.ofMinutes(5)).build());
    enqueue(newMessage(QUEUE).delay(Duration.ofMinutes(10)).build());
    enqueue(QUEUE);
    enqueue(QUEUE);
    advance(Duration.ofMinutes(1));
    return stats(QUEUE);
  }

  @Test
  void stats_emptyQueue_allZero() {
    createQueue(QUEUE);

    QueueStats stats = stats(QUEUE);

    assertThat(stats.queue()).isEqualTo(QUEUE);
    assertThat(stats.total()).isZero();
    assertThat(stats.attemptsHistogram()).isEmpty();
    assertThat(stats.deadReasons()).isEmpty();
    assertThat(stats.failureReasons()).isEmpty();
    assertThat(stats.nextScheduledAt()).isNull();
    assertThat(stats.latestScheduledAt()).isNull();
    assertThat(stats.oldestReadyAge()).isNull();
  }

  @Test
  void stats_mixedStates_countsEachState() {
    QueueStats stats = mixedQueueStats();

    assertThat(stats.ready()).isEqualTo(2);
    assertThat(stats.scheduled()).isEqualTo(3);
    assertThat(stats.leased()).isEqualTo(1);
    assertThat(stats.leaseExpired()).isEqualTo(1);
    assertThat(stats.dead()).isEqualTo(2);
    assertThat(stats.total()).isEqualTo(9);
  }

  @Test
  void stats_mixedStates_attemptsHistogram() {
    QueueStats stats = mixedQueueStats();

    assertThat(stats.attemptsHistogram()).isEqualTo(Map.of(0, 4L, 1, 4L, 2, 1L));
  }

  @Test
  void stats_mixedStates_deadAndFailureReasons() {
    QueueStats stats = mixedQueueStats();

    assertThat(stats.deadReasons())
        .isEqualTo(Map.of("VALIDATION_FAILURE", 1L, "HANDLER_EXCEPTION", 1L));
    assertThat(stats.failureReasons())
        .containsEntry("VALIDATION_FAILURE", 1L)
        .containsEntry("HANDLER_EXCEPTION", 2L)
        .containsEntry("DEPENDENCY_FAILURE", 1L)
        .doesNotContainKey("POISON");
  }

  @Test
  void stats_mixedStates_scheduledBoundsAndOldestReadyAge() {
    QueueStats stats = mixedQueueStats();

    assertThat(stats.nextScheduledAt()).isEqualTo(t0.plus(Duration.ofMinutes(5)));
    assertThat(stats.latestScheduledAt()).isEqualTo(t0.plus(Duration.ofMinutes(20)));
    assertThat(stats.oldestReadyAge()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void stats_afterTimePasses_scheduledBecomeReady() {
    mixedQueueStats();
    advance(Duration.ofMinutes(30));

    QueueStats stats = stats(QUEUE);

    assertThat(stats.scheduled()).isZero();
    assertThat(stats.ready()).isEqualTo(5);
    assertThat(stats.leaseExpired()).isEqualTo(1);
    assertThat(stats.leased()).isEqualTo(1);
    assertThat(stats.oldestReadyAge()).isEqualTo(Duration.ofMinutes(31));
  }

  @Test
  void stats_completedMessages_notCounted() {
    createQueue(QUEUE);
    complete(enqueueAndLease());

    assertThat(stats(QUEUE).total()).isZero();
    assertThat(stats(QUEUE).attemptsHistogram()).isEmpty();
  }

  @Test
  void stats_poison_countedAsDeadReason() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    advance(Duration.ofSeconds(1));
    lease(QUEUE, 1);

    QueueStats stats = stats(QUEUE);

    assertThat(stats.dead()).isEqualTo(1);
    assertThat(stats.deadReasons()).isEqualTo(Map.of("POISON", 1L));
    assertThat(stats.attemptsHistogram()).isEqualTo(Map.of(1, 1L));
  }

  @Test
  void stats_otherQueues_notCounted() {
    createQueue(QUEUE);
    createQueue(OTHER);
    enqueueMany(OTHER, 3);
    enqueue(QUEUE);

    assertThat(stats(QUEUE).total()).isEqualTo(1);
    assertThat(stats(OTHER).ready()).isEqualTo(3);
  }

  @Test
  void stats_unknownQueue_throwsQueueNotFound() {
    assertThatThrownBy(() -> stats("nope"))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
  }
}
