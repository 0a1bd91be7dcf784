package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.engine.DeliveryRules;
import io.redrive.error.LeaseLostException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deadlines ({@code expireAfter}): a message past its deadline dies as EXPIRED, whether ready,
 * scheduled or leased, via {@code expireDue()} or at lease time, and is moved like any dead
 * message.
 */
public abstract class ExpiryContract extends ComplianceTestBase {
  private static final Duration DEADLINE = Duration.ofMinutes(10);

  @Test
  void expireDue_unleasedPastDeadline_movedToDeadLetterQueueAndLeavesSource() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(newMessage(QUEUE).headers(headers()).build());
    Instant expireAt = now().plus(DEADLINE);
    advance(DEADLINE);

    int expired = redrive.expireDue();

    assertThat(expired).isEqualTo(1);
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(stats(QUEUE).total()).isZero();
    List<Message> dead = messagesIn(DLQ);
    assertThat(dead).hasSize(1);
    Message copy = message(dead.get(0).id());
    assertThat(copy.sourceId()).isEqualTo(id);
    assertThat(copy.sourceQueue()).isEqualTo(QUEUE);
    assertThat(copy.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(copy.state()).isEqualTo(MessageState.DEAD);
    assertThat(copy.attempts()).isZero();
    assertThat(copy.headers()).isEqualTo(headers());
    assertThat(copy.lastError().reason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(copy.lastError().message()).isEqualTo(DeliveryRules.expiredText(id, TYPE, expireAt));
    assertThat(last(copy).outcome()).isEqualTo(Outcome.DEAD_LETTERED);
  }

  @Test
  void expireDue_oneMilliBeforeDeadline_expiresNothing() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    advance(DEADLINE.minus(MILLI));

    assertThat(redrive.expireDue()).isZero();

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
    advance(MILLI);
    assertThat(redrive.expireDue()).isEqualTo(1);
  }

  @Test
  void expireDue_keepMode_deadInPlaceAsExpired() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    Instant expireAt = now().plus(DEADLINE);
    advance(DEADLINE.plusSeconds(5));

    redrive.expireDue();

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(m.deadAt()).isEqualTo(now());
    assertThat(m.expireAt()).isEqualTo(expireAt);
    assertThat(m.lastError().retryable()).isFalse();
    assertThat(m.history()).extracting(HistoryEntry::outcome).containsExactly(Outcome.EXPIRED);
    assertNothingLeasable(QUEUE);
  }

  @Test
  void expireDue_twice_expiresOnce() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    enqueue(QUEUE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);
    assertThat(redrive.expireDue()).isZero();
  }

  @Test
  void lease_pastDeadline_expiresInsteadOfDelivering() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(QUEUE);
    advance(DEADLINE);

    LeaseResult result = lease(QUEUE, 10);

    assertThat(result.leased()).isEmpty();
    assertThat(result.expired()).containsExactly(id);
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(messagesIn(DLQ))
        .extracting(Message::deadReason)
        .containsExactly(FailureReason.EXPIRED);
  }

  @Test
  void lease_pastDeadlineBeforeMaxAttempts_expiredNotPoisoned() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withMaxAttempts(1));
    String id = enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    advance(DEADLINE);

    LeaseResult result = lease(QUEUE, 1);

    assertThat(result.expired()).containsExactly(id);
    assertThat(result.poisoned()).isEmpty();
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.EXPIRED);
  }

  @Test
  void expireDue_leasedPastDeadline_deadAndHolderLosesLease() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, LONG_LEASE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(FailureReason.EXPIRED);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.history()).extracting(HistoryEntry::outcome).contains(Outcome.EXPIRED);
    assertThatThrownBy(() -> complete(leased)).isInstanceOf(LeaseLostException.class);
    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void expireDue_leasedPastDeadlineWithDeadLetterQueue_moved() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.moveTo(DLQ)));
    String id = enqueue(QUEUE);
    leaseOne(QUEUE, LONG_LEASE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(messagesIn(DLQ)).extracting(Message::sourceId).containsExactly(id);
  }

  @Test
  void expireDue_scheduledMessagePastDeadline_expires() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueue(newMessage(QUEUE).delay(Duration.ofHours(1)).build());
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(id).deadReason()).isEqualTo(FailureReason.EXPIRED);
  }

  @Test
  void expireDue_messageDeadlineOverridesQueue() {
    createQueue(QUEUE, defaults().withExpireAfter(Duration.ofDays(1)));
    String shortLived = enqueue(newMessage(QUEUE).expireAfter(Duration.ofSeconds(30)).build());
    String normal = enqueue(QUEUE);
    advance(Duration.ofSeconds(30));

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(shortLived).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(normal).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void expireDue_noDeadline_expiresNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    advance(Duration.ofDays(365));

    assertThat(redrive.expireDue()).isZero();

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void expireDue_alreadyDeadMessage_notExpiredAgain() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    String id = enqueueAndKill(QUEUE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isZero();

    assertThat(message(id).deadReason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
  }

  @Test
  void expireDue_discardMode_deletesMessage() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE).withDeadLetter(DeadLetter.discard()));
    String id = enqueue(QUEUE);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
  }

  @Test
  void expireDue_onlyExpiresPastDeadlineAcrossQueues() {
    createQueue(QUEUE, defaults().withExpireAfter(DEADLINE));
    createQueue(OTHER, defaults().withExpireAfter(DEADLINE.multipliedBy(2)));
    enqueue(QUEUE);
    String later = enqueue(OTHER);
    advance(DEADLINE);

    assertThat(redrive.expireDue()).isEqualTo(1);

    assertThat(message(later).state()).isEqualTo(MessageState.READY);
  }
}
