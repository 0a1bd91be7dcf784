package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.deadletter.RetryResult;
import io.redrive.error.ConflictException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Manual retry: a dead message goes back to ready in place with attempts reset to 0 and its history
 * kept plus a RETRIED entry; anything not dead is refused with {@code NOT_DEAD}.
 */
public abstract class ManualRetryContract extends ComplianceTestBase {

  @Test
  void retry_deadMessage_readyWithAttemptsResetAndHistoryKept() {
    createQueue(QUEUE, defaults().withMaxAttempts(2));
    String id = enqueue(QUEUE);
    failRetryAfter(leaseOne(QUEUE), Duration.ZERO);
    fail(leaseOne(QUEUE));
    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
    advance(Duration.ofMinutes(5));

    Message retried = redrive.retry(id);

    assertThat(retried.id()).isEqualTo(id);
    assertThat(retried.state()).isEqualTo(MessageState.READY);
    assertThat(retried.attempts()).isZero();
    assertThat(retried.deadReason()).isNull();
    assertThat(retried.visibleAt()).isEqualTo(now());
    assertThat(retried.history())
        .extracting(HistoryEntry::outcome)
        .containsExactly(Outcome.FAILED, Outcome.FAILED, Outcome.RETRIED);
    assertThat(last(retried).settledAt()).isEqualTo(now());
    assertThat(message(id)).isEqualTo(retried);
  }

  @Test
  void retry_thenLease_deliversAttemptOneWithFullBudget() {
    createQueue(QUEUE, defaults().withMaxAttempts(2));
    String id = enqueue(QUEUE);
    failRetryAfter(leaseOne(QUEUE), Duration.ZERO);
    fail(leaseOne(QUEUE));

    redrive.retry(id);

    LeasedMessage first = leaseOne(QUEUE);
    assertThat(first.attempt()).isEqualTo(1);
    failRetryAfter(first, Duration.ZERO);
    LeasedMessage second = leaseOne(QUEUE);
    assertThat(second.attempt()).isEqualTo(2);
  }

  @Test
  void retry_poisonedMessage_deliverableAgain() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    String id = enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    advance(Duration.ofSeconds(1));
    LeaseResult poisoned = lease(QUEUE, 1);
    assertThat(poisoned.poisoned()).containsExactly(id);

    redrive.retry(id);

    LeasedMessage leased = leaseOne(QUEUE);
    assertThat(leased.id()).isEqualTo(id);
    assertThat(leased.attempt()).isEqualTo(1);
    assertThat(outcomes(id))
        .containsExactly(Outcome.LEASE_EXPIRED, Outcome.POISONED, Outcome.RETRIED, Outcome.LEASED);
  }

  @Test
  void retry_readyMessage_throwsNotDeadAndChangesNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    Message before = message(id);

    assertThatThrownBy(() -> redrive.retry(id))
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(id)
        .satisfies(e -> assertThat(((ConflictException) e).code()).isEqualTo("NOT_DEAD"));

    assertThat(message(id)).isEqualTo(before);
  }

  @Test
  void retry_leasedMessage_throwsNotDeadAndChangesNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    Message before = message(id);

    assertThatThrownBy(() -> redrive.retry(id))
        .isInstanceOf(ConflictException.class)
        .satisfies(e -> assertThat(((ConflictException) e).code()).isEqualTo("NOT_DEAD"));

    assertThat(message(id)).isEqualTo(before);
    assertThat(complete(leased).state()).isEqualTo(MessageState.COMPLETED);
  }

  @Test
  void retry_scheduledMessage_throwsNotDead() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    fail(leaseOne(QUEUE));

    assertThatThrownBy(() -> redrive.retry(id))
        .isInstanceOf(ConflictException.class)
        .satisfies(e -> assertThat(((ConflictException) e).code()).isEqualTo("NOT_DEAD"));
    assertThat(message(id).attempts()).isEqualTo(1);
  }

  @Test
  void retry_unknownId_throwsMessageNotFound() {
    createQueue(QUEUE);
    String id = unknownId();

    assertThatThrownBy(() -> redrive.retry(id))
        .isInstanceOf(MessageNotFoundException.class)
        .hasMessageContaining(id);
  }

  @Test
  void retryBulk_mixedIds_reportsRetriedSkippedAndNotFound() {
    createQueue(QUEUE);
    String dead1 = enqueueAndKill(QUEUE);
    String dead2 = enqueueAndKill(QUEUE);
    String ready = enqueue(QUEUE);
    String missing = unknownId();

    RetryResult result = redrive.retry(List.of(dead1, ready, missing, dead2), "ops@example.com");

    assertThat(result.retried()).containsExactlyInAnyOrder(dead1, dead2);
    assertThat(result.skipped()).containsExactly(ready);
    assertThat(result.notFound()).containsExactly(missing);
    assertThat(message(dead1).state()).isEqualTo(MessageState.READY);
    assertThat(message(dead2).attempts()).isZero();
    assertThat(message(ready).history()).isEmpty();
  }

  @Test
  void retryBulk_actor_recordedInRetriedEntry() {
    createQueue(QUEUE);
    String dead = enqueueAndKill(QUEUE);

    redrive.retry(List.of(dead), "ops@example.com");

    assertThat(last(message(dead)).outcome()).isEqualTo(Outcome.RETRIED);
    assertThat(last(message(dead)).worker()).isEqualTo("ops@example.com");
  }

  @Test
  void retry_twice_secondIsSkipped() {
    createQueue(QUEUE);
    String dead = enqueueAndKill(QUEUE);
    redrive.retry(List.of(dead), null);

    RetryResult again = redrive.retry(List.of(dead), null);

    assertThat(again.retried()).isEmpty();
    assertThat(again.skipped()).containsExactly(dead);
    assertThat(outcomes(dead)).containsExactly(Outcome.FAILED, Outcome.RETRIED);
  }

  @Test
  void retry_keepsLastErrorForTheRecord() {
    createQueue(QUEUE);
    String dead = enqueueAndKill(QUEUE);

    Message retried = redrive.retry(dead);

    assertThat(retried.lastError().reason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
  }
}
