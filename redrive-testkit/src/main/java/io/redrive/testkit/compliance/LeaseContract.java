package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.QueueNotFoundException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Leasing: what a lease delivers, counting at lease time, lease expiry (still counted), serve order
 * by (visibleAt, enqueue sequence), pause and unknown queues.
 */
public abstract class LeaseContract extends ComplianceTestBase {

  @Test
  void lease_emptyQueue_returnsNothing() {
    createQueue(QUEUE);

    LeaseResult result = lease(QUEUE, 10);

    assertThat(result.leased()).isEmpty();
    assertThat(result.poisoned()).isEmpty();
    assertThat(result.expired()).isEmpty();
  }

  @Test
  void lease_readyMessage_deliversFirstAttemptUnderFreshToken() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    LeasedMessage leased = leaseOne(QUEUE);

    assertThat(leased.id()).isEqualTo(id);
    assertThat(leased.queue()).isEqualTo(QUEUE);
    assertThat(leased.attempt()).isEqualTo(1);
    assertThat(leased.maxAttempts()).isEqualTo(QueuePolicy.DEFAULT_MAX_ATTEMPTS);
    assertThat(leased.progress()).isZero();
    assertThat(leased.leaseExpiresAt()).isEqualTo(now().plus(QueuePolicy.DEFAULT_LEASE_TIMEOUT));
    assertThat(LeaseToken.parse(leased.token()).messageId()).isEqualTo(id);
  }

  @Test
  void lease_readyMessage_storedAsLeasedWithWorkerAndHistoryEntry() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    LeasedMessage leased = leaseOne(QUEUE);

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.LEASED);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.leasedBy()).isEqualTo(WORKER);
    assertThat(m.visibleAt()).isEqualTo(leased.leaseExpiresAt());
    HistoryEntry entry = last(m);
    assertThat(entry.outcome()).isEqualTo(Outcome.LEASED);
    assertThat(entry.attempt()).isEqualTo(1);
    assertThat(entry.worker()).isEqualTo(WORKER);
    assertThat(entry.leasedAt()).isEqualTo(now());
    assertThat(entry.settledAt()).isNull();
  }

  @Test
  void lease_requestedLeaseTimeout_overridesQueueTimeout() {
    createQueue(QUEUE);
    enqueue(QUEUE);

    LeasedMessage leased = leaseOne(QUEUE, Duration.ofMinutes(7));

    assertThat(leased.leaseExpiresAt()).isEqualTo(now().plus(Duration.ofMinutes(7)));
  }

  @Test
  void lease_queueLeaseTimeout_used() {
    createQueue(QUEUE, defaults().withLeaseTimeout(Duration.ofSeconds(90)));
    enqueue(QUEUE);

    assertThat(leaseOne(QUEUE).leaseExpiresAt()).isEqualTo(now().plusSeconds(90));
  }

  @Test
  void lease_maxTwoOfFive_deliversTwoOldestInEnqueueOrder() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 5);

    LeaseResult result = lease(QUEUE, 2);

    assertThat(ids(result)).containsExactly(ids.get(0), ids.get(1));
    assertThat(ids(lease(QUEUE, 10))).containsExactlyElementsOf(ids.subList(2, 5));
  }

  @Test
  void lease_messageUnderLiveLease_notDeliveredAgain() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    leaseOne(QUEUE);

    advance(QueuePolicy.DEFAULT_LEASE_TIMEOUT.minus(MILLI));

    assertNothingLeasable(QUEUE);
  }

  @Test
  void lease_afterLeaseExpired_redeliversSameIdAsNextAttempt() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage first = leaseOne(QUEUE, Duration.ofSeconds(30));

    advance(Duration.ofSeconds(31));
    LeasedMessage second = leaseOne(QUEUE);

    assertThat(second.id()).isEqualTo(id);
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.token()).isNotEqualTo(first.token());
    Message m = message(id);
    assertThat(m.attempts()).isEqualTo(2);
    assertThat(m.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.LEASE_EXPIRED, Outcome.LEASED);
    HistoryEntry expired = m.history().get(0);
    assertThat(expired.attempt()).isEqualTo(1);
    assertThat(expired.worker()).isEqualTo(WORKER);
    assertThat(expired.leasedAt()).isEqualTo(first.leaseExpiresAt().minusSeconds(30));
  }

  @Test
  void lease_exactlyAtLeaseExpiry_redelivers() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage first = leaseOne(QUEUE, Duration.ofSeconds(30));

    advance(Duration.ofSeconds(30).minus(MILLI));
    assertNothingLeasable(QUEUE);
    advance(MILLI);

    assertThat(now()).isEqualTo(first.leaseExpiresAt());
    assertThat(leaseOne(QUEUE).attempt()).isEqualTo(2);
  }

  @Test
  void lease_expiredLeaseReLeasedByOtherWorker_historyNamesBothWorkers() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(5));
    advance(Duration.ofSeconds(6));

    redrive.lease(LeaseRequest.of(QUEUE, "worker-2", 1));

    HistoryEntry expired = message(id).history().get(0);
    assertThat(expired.outcome()).isEqualTo(Outcome.LEASE_EXPIRED);
    assertThat(expired.worker()).isEqualTo(WORKER);
    assertThat(last(message(id)).worker()).isEqualTo("worker-2");
  }

  @Test
  void lease_otherQueue_notDelivered() {
    createQueue(QUEUE);
    createQueue(OTHER);
    String other = enqueue(OTHER);

    assertNothingLeasable(QUEUE);
    assertThat(leaseOne(OTHER).id()).isEqualTo(other);
  }

  @Test
  void lease_pausedQueue_returnsNothingUntilResumed() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    redrive.pauseQueue(QUEUE);

    assertNothingLeasable(QUEUE);
    assertThat(message(id).attempts()).isZero();

    redrive.resumeQueue(QUEUE);
    assertThat(leaseOne(QUEUE).id()).isEqualTo(id);
  }

  @Test
  void lease_unknownQueue_throwsQueueNotFound() {
    assertThatThrownBy(() -> lease("nope", 1))
        .isInstanceOf(QueueNotFoundException.class)
        .hasMessageContaining("nope");
  }

  @Test
  void lease_retriedMessage_queuesBehindMessagesReadyBeforeIt() {
    createQueue(QUEUE);
    String a = enqueue(QUEUE);
    String b = enqueue(QUEUE);
    String c = enqueue(QUEUE);
    LeasedMessage first = leaseOne(QUEUE);
    assertThat(first.id()).isEqualTo(a);

    advance(Duration.ofSeconds(1));
    failRetryAfter(first, Duration.ZERO);

    assertThat(ids(lease(QUEUE, 10))).containsExactly(b, c, a);
  }

  @Test
  void lease_retriedMessageVisibleBeforeLaterEnqueue_servedFirst() {
    createQueue(QUEUE);
    String a = enqueue(QUEUE);
    failRetryAfter(leaseOne(QUEUE), Duration.ofSeconds(10));
    advance(Duration.ofSeconds(5));
    String b = enqueue(QUEUE);
    advance(Duration.ofSeconds(10));
    String c = enqueue(QUEUE);

    assertThat(ids(lease(QUEUE, 10))).containsExactly(b, a, c);
  }

  @Test
  void lease_delayedMessage_servedByVisibleTimeNotEnqueueOrder() {
    createQueue(QUEUE);
    String late = enqueue(newMessage(QUEUE).delay(Duration.ofSeconds(10)).build());
    String early = enqueue(QUEUE);
    advance(Duration.ofSeconds(20));
    String last = enqueue(QUEUE);

    assertThat(ids(lease(QUEUE, 10))).containsExactly(early, late, last);
  }

  @Test
  void lease_sameVisibleTime_servedByEnqueueSequence() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 20);

    assertThat(ids(lease(QUEUE, 20))).containsExactlyElementsOf(ids);
  }

  @Test
  void lease_messageLeasedThenExpiredTwice_countsEveryDelivery() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    for (int attempt = 1; attempt <= 3; attempt++) {
      LeasedMessage leased = leaseOne(QUEUE, Duration.ofSeconds(1));
      assertThat(leased.attempt()).isEqualTo(attempt);
      advance(Duration.ofSeconds(1));
    }

    assertThat(message(id).attempts()).isEqualTo(3);
    assertThat(outcomes(id))
        .containsExactly(Outcome.LEASE_EXPIRED, Outcome.LEASE_EXPIRED, Outcome.LEASED);
  }

  @Test
  void lease_afterRenew_leaseExpiresLater() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, Duration.ofSeconds(30));
    advance(Duration.ofSeconds(20));

    Instant expiry = redrive.renew(leased.token(), null);

    assertThat(expiry).isEqualTo(now().plus(QueuePolicy.DEFAULT_LEASE_TIMEOUT));
    advance(Duration.ofSeconds(29));
    assertNothingLeasable(QUEUE);
    advance(Duration.ofSeconds(1));
    assertThat(leaseOne(QUEUE).attempt()).isEqualTo(2);
  }
}
