package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.engine.DeliveryRules;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureCategory;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueUpdate;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The poison boundary: a message is delivered exactly {@code maxAttempts} times; the next lease
 * dead-letters it as POISON (listed in {@code LeaseResult.poisoned()}, never delivered) with a
 * failure record of attempt {@code maxAttempts + 1} holding the whole message.
 */
public abstract class PoisonContract extends ComplianceTestBase {

  /** Leases {@code times} times, each lease running past its timeout (a hanging handler). */
  private void deliverAndHang(int times) {
    for (int attempt = 1; attempt <= times; attempt++) {
      LeasedMessage leased = leaseOne(QUEUE, Duration.ofSeconds(10));
      assertThat(leased.attempt()).isEqualTo(attempt);
      advance(Duration.ofSeconds(10));
    }
  }

  @Test
  void lease_afterMaxAttemptsDeliveries_poisonsInsteadOfDelivering() {
    createQueue(QUEUE, defaults().withMaxAttempts(3));
    String id = enqueue(QUEUE);
    deliverAndHang(3);

    LeaseResult result = lease(QUEUE, 10);

    assertThat(result.leased()).isEmpty();
    assertThat(result.poisoned()).containsExactly(id);
    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(m.deadAt()).isEqualTo(now());
    assertThat(m.attempts()).isEqualTo(3);
    assertNothingLeasable(QUEUE);
  }

  @Test
  void poison_failureRecord_reportsAttemptMaxPlusOneAndTheWholeMessage() {
    createQueue(QUEUE, defaults().withMaxAttempts(2));
    String id = enqueue(newMessage(QUEUE).headers(headers()).build());
    deliverAndHang(2);

    lease(QUEUE, 1);

    FailureRecord failure = message(id).lastError();
    assertThat(failure.reason()).isEqualTo(FailureReason.POISON);
    assertThat(failure.category()).isEqualTo(FailureCategory.POISON);
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.attempt()).isEqualTo(3);
    assertThat(failure.maxAttempts()).isEqualTo(2);
    assertThat(failure.at()).isEqualTo(now());
    assertThat(failure.message()).isEqualTo(DeliveryRules.poisonText(id, TYPE, 3, 2));
    assertThat(failure.poisonedMessage()).isNotNull().contains(id).contains(TYPE);
  }

  @Test
  void poison_history_keepsEveryDeliveryThenPoisoned() {
    createQueue(QUEUE, defaults().withMaxAttempts(3));
    String id = enqueue(QUEUE);
    fail(leaseOne(QUEUE));
    advance(Duration.ofMinutes(1));
    leaseOne(QUEUE, Duration.ofSeconds(10));
    advance(Duration.ofSeconds(10));
    redrive.abandon(new AbandonRequest(leaseOne(QUEUE).token(), null, false, null));

    lease(QUEUE, 1);

    Message m = message(id);
    assertThat(m.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(
            Outcome.FAILED, Outcome.LEASE_EXPIRED, Outcome.ABANDONED, Outcome.POISONED);
    assertThat(m.history().subList(0, 3))
        .extracting(HistoryEntry::attempt)
        .containsExactly(1, 2, 3);
    assertThat(last(m).failure().reason()).isEqualTo(FailureReason.POISON);
  }

  @Test
  void leaseExpiry_countsTowardPoison_handlerRunsAtMostMaxAttemptsTimes() {
    createQueue(QUEUE, defaults().withMaxAttempts(4));
    String id = enqueue(QUEUE);
    int deliveries = 0;

    for (int i = 0; i < 10; i++) {
      LeaseResult result = lease(QUEUE, 1, Duration.ofSeconds(5));
      deliveries += result.leased().size();
      advance(Duration.ofSeconds(5));
      if (!result.poisoned().isEmpty()) {
        break;
      }
    }

    assertThat(deliveries).isEqualTo(4);
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.POISON);
  }

  @Test
  void poison_maxAttemptsOne_secondLeasePoisons() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    String id = enqueue(QUEUE);
    deliverAndHang(1);

    assertThat(lease(QUEUE, 1).poisoned()).containsExactly(id);
    assertThat(message(id).lastError().attempt()).isEqualTo(2);
  }

  @Test
  void poison_otherMessagesStillDelivered() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    String poison = enqueue(QUEUE);
    deliverAndHang(1);
    String healthy = enqueue(QUEUE);

    LeaseResult first = lease(QUEUE, 10);
    List<String> delivered = first.leased().isEmpty() ? ids(lease(QUEUE, 10)) : ids(first);

    assertThat(first.poisoned()).containsExactly(poison);
    assertThat(delivered).containsExactly(healthy);
  }

  @Test
  void poison_withDeadLetterQueue_movesCopyWithPoisonReason() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withMaxAttempts(2).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(QUEUE);
    deliverAndHang(2);

    LeaseResult result = lease(QUEUE, 1);

    assertThat(result.poisoned()).containsExactly(id);
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    List<Message> dead = messagesIn(DLQ);
    assertThat(dead).hasSize(1);
    Message copy = message(dead.get(0).id());
    assertThat(copy.sourceId()).isEqualTo(id);
    assertThat(copy.deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(copy.state()).isEqualTo(MessageState.DEAD);
    assertThat(copy.attempts()).isZero();
    assertThat(copy.lastError().attempt()).isEqualTo(3);
    assertThat(copy.history()).extracting(HistoryEntry::outcome).contains(Outcome.POISONED);
    assertThat(last(copy).outcome()).isEqualTo(Outcome.DEAD_LETTERED);
  }

  @Test
  void poison_discardMode_deletesMessage() {
    createQueue(QUEUE, defaults().withMaxAttempts(1).withDeadLetter(DeadLetter.discard()));
    String id = enqueue(QUEUE);
    deliverAndHang(1);

    assertThat(lease(QUEUE, 1).poisoned()).containsExactly(id);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void lowerMaxAttempts_queuedMessagePastNewLimit_poisonedOnNextLease() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    failRetryAfter(leaseOne(QUEUE), Duration.ZERO);
    failRetryAfter(leaseOne(QUEUE), Duration.ZERO);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(2).build());
    LeaseResult result = lease(QUEUE, 1);

    assertThat(result.leased()).isEmpty();
    assertThat(result.poisoned()).containsExactly(id);
    assertThat(message(id).lastError().maxAttempts()).isEqualTo(2);
    assertThat(message(id).lastError().attempt()).isEqualTo(3);
  }

  @Test
  void lowerMaxAttempts_leasedMessageFailsAtNewLimit_deadAtOnce() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(1).build());
    SettleResult result = fail(leased);

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(result.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
  }

  @Test
  void raiseMaxAttempts_queuedMessage_getsMoreDeliveries() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    String id = enqueue(QUEUE);
    deliverAndHang(1);

    redrive.updateQueue(QUEUE, QueueUpdate.builder().maxAttempts(3).build());

    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(leased.id()).isEqualTo(id);
    assertThat(leased.attempt()).isEqualTo(2);
    assertThat(leased.maxAttempts()).isEqualTo(3);
  }

  @Test
  void poison_batchLease_poisonsOnlyExhaustedMessages() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    String exhausted = enqueue(QUEUE);
    deliverAndHang(1);
    List<String> fresh = enqueueMany(QUEUE, 3);

    LeaseResult result = lease(QUEUE, 10);

    assertThat(result.poisoned()).containsExactly(exhausted);
    assertThat(ids(result)).containsExactlyElementsOf(fresh);
    assertThat(Collections.disjoint(result.poisoned(), ids(result))).isTrue();
  }
}
