package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.error.MessageNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Settling: complete, fail, abandon, release and renew; only the current token settles, a token
 * whose lease expired may settle while nobody re-leased, and nothing changes on any error.
 */
public abstract class SettleContract extends ComplianceTestBase {

  @Test
  void complete_currentToken_removesMessage() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    SettleResult result = complete(leaseOne(QUEUE));

    assertThat(result.messageId()).isEqualTo(id);
    assertThat(result.state()).isEqualTo(MessageState.COMPLETED);
    assertThat(result.deadReason()).isNull();
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
    assertThat(stats(QUEUE).total()).isZero();
  }

  @Test
  void complete_twiceAfterTheCompletionWindow_secondThrowsLeaseNotFound() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    complete(leased);
    advance(redrive.completionWindow().plus(MILLI));

    assertThatThrownBy(() -> complete(leased))
        .isInstanceOf(LeaseNotFoundException.class)
        .hasMessageContaining(id);
  }

  /** A settle retried after COMMIT_UNKNOWN learns from LEASE_LOST that the first one happened. */
  @Test
  void fail_twiceWithTheSameToken_secondThrowsLeaseLostAndChangesNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    fail(leased);
    Message afterFirst = message(id);

    assertThatThrownBy(() -> fail(leased))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining(id);
    Message afterSecond = message(id);
    assertThat(afterSecond.attempts()).isEqualTo(afterFirst.attempts());
    assertThat(afterSecond.state()).isEqualTo(afterFirst.state());
    assertThat(afterSecond.history()).hasSameSizeAs(afterFirst.history());
  }

  @Test
  void complete_staleTokenAfterReLease_throwsLeaseLostAndChangesNothing() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage first = leaseOne(QUEUE, Duration.ofSeconds(30));
    advance(Duration.ofSeconds(31));
    LeasedMessage second = leaseOne(QUEUE);
    Message before = message(id);

    assertThatThrownBy(() -> complete(first))
        .isInstanceOf(LeaseLostException.class)
        .hasMessageContaining(id)
        .satisfies(e -> assertThat(((LeaseLostException) e).code()).isEqualTo("LEASE_LOST"));
    assertThatThrownBy(() -> fail(first)).isInstanceOf(LeaseLostException.class);
    assertThatThrownBy(() -> redrive.abandon(new AbandonRequest(first.token(), null, true, null)))
        .isInstanceOf(LeaseLostException.class);
    assertThatThrownBy(() -> redrive.renew(first.token(), null))
        .isInstanceOf(LeaseLostException.class);
    assertThatThrownBy(() -> redrive.release(List.of(first.token())))
        .isInstanceOf(LeaseLostException.class);

    assertThat(message(id)).isEqualTo(before);
    assertThat(complete(second).state()).isEqualTo(MessageState.COMPLETED);
  }

  @Test
  void complete_expiredLeaseNobodyReLeased_succeeds() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, Duration.ofSeconds(30));
    advance(Duration.ofMinutes(5));

    SettleResult result = complete(leased);

    assertThat(result.state()).isEqualTo(MessageState.COMPLETED);
    assertThatThrownBy(() -> message(id)).isInstanceOf(MessageNotFoundException.class);
  }

  @Test
  void fail_expiredLeaseNobodyReLeased_succeeds() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE, Duration.ofSeconds(30));
    advance(Duration.ofMinutes(5));

    SettleResult result = fail(leased);

    assertThat(result.state()).isIn(MessageState.READY, MessageState.SCHEDULED);
    assertThat(message(id).attempts()).isEqualTo(1);
    assertThat(outcomes(id)).containsExactly(Outcome.FAILED);
  }

  @Test
  void complete_unknownMessage_throwsLeaseNotFound() {
    createQueue(QUEUE);
    String token = unknownToken();

    assertThatThrownBy(() -> redrive.complete(token)).isInstanceOf(LeaseNotFoundException.class);
    assertThatThrownBy(
            () -> redrive.fail(FailRequest.of(token, FailureReason.HANDLER_EXCEPTION, "x")))
        .isInstanceOf(LeaseNotFoundException.class);
    assertThatThrownBy(() -> redrive.renew(token, null)).isInstanceOf(LeaseNotFoundException.class);
  }

  @Test
  void complete_malformedToken_throwsIllegalArgument() {
    assertThatThrownBy(() -> redrive.complete("not-a-token"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("leaseToken");
  }

  @Test
  void complete_neverIssuedTokenForLeasedMessage_throwsLeaseLost() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    leaseOne(QUEUE);
    Message before = message(id);

    assertThatThrownBy(() -> redrive.complete(foreignToken(id)))
        .isInstanceOf(LeaseLostException.class);

    assertThat(message(id)).isEqualTo(before);
  }

  @Test
  void complete_tokenForReadyMessage_throwsLeaseLost() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    assertThatThrownBy(() -> redrive.complete(foreignToken(id)))
        .isInstanceOf(LeaseLostException.class);

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
  }

  @Test
  void fail_retryable_recordsFailureAndSchedulesRetry() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    Instant failedAt = advance(Duration.ofSeconds(3));

    SettleResult result =
        redrive.fail(
            FailRequest.of(leased.token(), FailureReason.DEPENDENCY_FAILURE, "db down")
                .withStackTrace("at Foo.bar(Foo.java:1)"));

    assertThat(result.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(result.visibleAt()).isEqualTo(failedAt.plus(Duration.ofMinutes(1)));
    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.leasedBy()).isNull();
    HistoryEntry entry = last(m);
    assertThat(entry.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(entry.worker()).isEqualTo(WORKER);
    assertThat(entry.settledAt()).isEqualTo(failedAt);
    FailureRecord failure = entry.failure();
    assertThat(failure.reason()).isEqualTo(FailureReason.DEPENDENCY_FAILURE);
    assertThat(failure.message()).isEqualTo("db down");
    assertThat(failure.retryable()).isTrue();
    assertThat(failure.attempt()).isEqualTo(1);
    assertThat(failure.maxAttempts()).isEqualTo(5);
    assertThat(failure.worker()).isEqualTo(WORKER);
    assertThat(failure.at()).isEqualTo(failedAt);
    assertThat(failure.stackTrace()).contains("Foo.bar");
    assertThat(failure.poisonedMessage()).isNull();
    assertThat(m.lastError()).isEqualTo(failure);
  }

  @Test
  void abandon_withDelay_keepsAttemptAndHidesUntilDelayPassed() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    SettleResult result =
        redrive.abandon(new AbandonRequest(leased.token(), Duration.ofSeconds(10), false, "busy"));

    assertThat(result.visibleAt()).isEqualTo(now().plusSeconds(10));
    Message m = message(id);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(last(m).outcome()).isEqualTo(Outcome.ABANDONED);
    assertThat(last(m).note()).contains("busy");
    advance(Duration.ofSeconds(10).minus(MILLI));
    assertNothingLeasable(QUEUE);
    advance(MILLI);
    assertThat(leaseOne(QUEUE).attempt()).isEqualTo(2);
  }

  @Test
  void abandon_withoutDelay_leasableAtOnce() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    redrive.abandon(new AbandonRequest(leaseOne(QUEUE).token(), null, false, null));

    assertThat(message(id).state()).isEqualTo(MessageState.READY);
    assertThat(leaseOne(QUEUE).attempt()).isEqualTo(2);
  }

  @Test
  void abandon_withRefund_givesAttemptBack() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(1));
    advance(Duration.ofSeconds(1));
    LeasedMessage second = leaseOne(QUEUE);
    assertThat(second.attempt()).isEqualTo(2);

    redrive.abandon(new AbandonRequest(second.token(), Duration.ZERO, true, "shutdown"));

    assertThat(message(id).attempts()).isEqualTo(1);
    assertThat(leaseOne(QUEUE).attempt()).isEqualTo(2);
  }

  @Test
  void abandon_refundRepeatedly_attemptsFlooredAtZero() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    for (int i = 0; i < 3; i++) {
      LeasedMessage leased = leaseOne(QUEUE);
      assertThat(leased.attempt()).isEqualTo(1);
      redrive.abandon(new AbandonRequest(leased.token(), null, true, null));
      assertThat(message(id).attempts()).isZero();
    }
    assertThat(outcomes(id))
        .containsExactly(Outcome.ABANDONED, Outcome.ABANDONED, Outcome.ABANDONED);
  }

  @Test
  void release_severalLeases_refundsAttemptsAndReadiesAtOnce() {
    createQueue(QUEUE);
    List<String> ids = enqueueMany(QUEUE, 3);
    List<LeasedMessage> leased = lease(QUEUE, 3).leased();

    List<SettleResult> results =
        redrive.release(leased.stream().map(LeasedMessage::token).toList());

    assertThat(results)
        .extracting(SettleResult::messageId)
        .containsExactlyInAnyOrderElementsOf(ids);
    assertThat(results).extracting(SettleResult::state).containsOnly(MessageState.READY);
    for (String id : ids) {
      Message m = message(id);
      assertThat(m.attempts()).isZero();
      assertThat(m.state()).isEqualTo(MessageState.READY);
      assertThat(last(m).outcome()).isEqualTo(Outcome.RELEASED);
    }
    assertThat(lease(QUEUE, 3).leased())
        .extracting(LeasedMessage::attempt)
        .containsExactly(1, 1, 1);
  }

  @Test
  void release_afterRelease_oldTokenLost() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    redrive.release(List.of(leased.token()));

    assertThatThrownBy(() -> complete(leased)).isInstanceOf(LeaseLostException.class);
  }

  @Test
  void renew_liveLease_extendsByQueueTimeoutFromNow() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    advance(Duration.ofSeconds(25));

    Instant expiry = redrive.renew(leased.token(), null);

    assertThat(expiry).isEqualTo(now().plusSeconds(30));
    assertThat(message(id).visibleAt()).isEqualTo(expiry);
    assertThat(message(id).attempts()).isEqualTo(1);
  }

  @Test
  void renew_explicitTimeout_extendsByIt() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    Instant expiry = redrive.renew(leased.token(), Duration.ofMinutes(10));

    assertThat(expiry).isEqualTo(now().plus(Duration.ofMinutes(10)));
    advance(Duration.ofMinutes(10).minus(MILLI));
    assertNothingLeasable(QUEUE);
    assertThat(complete(leased).state()).isEqualTo(MessageState.COMPLETED);
  }

  @Test
  void fail_withProgress_orMergedAcrossAttempts() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    redrive.fail(
        FailRequest.of(leaseOne(QUEUE).token(), FailureReason.HANDLER_EXCEPTION, "x")
            .withProgress(0b0011)
            .withRetryAfter(Duration.ZERO));
    LeasedMessage second = leaseOne(QUEUE);
    assertThat(second.progress()).isEqualTo(0b0011);
    redrive.fail(
        FailRequest.of(second.token(), FailureReason.HANDLER_EXCEPTION, "x")
            .withProgress(0b0110)
            .withRetryAfter(Duration.ZERO));

    assertThat(message(id).progress()).isEqualTo(0b0111);
    assertThat(leaseOne(QUEUE).progress()).isEqualTo(0b0111);
  }

  @Test
  void complete_withProgress_accepted() {
    createQueue(QUEUE);
    enqueue(QUEUE);

    SettleResult result = redrive.complete(leaseOne(QUEUE).token(), 0b1000);

    assertThat(result.state()).isEqualTo(MessageState.COMPLETED);
  }
}
