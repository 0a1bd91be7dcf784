package io.redrive.testkit.compliance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.error.LeaseLostException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailAllResult;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueueUpdate;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.retry.Jitter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Retry timing after a failed attempt: exact backoff delays (the message is not leasable 1 ms
 * before the delay and is at the delay), retry-after overrides, and the failures that die at once.
 * A failure with reason UNREGISTERED_HANDLER, from any caller, is an abandon with the
 * unregistered-handler backoff (1 s × 2^(n−1), exponent capped at 6, at most 60 s), counted, until
 * the lease after the last attempt poisons it. A backoff with jitter puts each retry in its
 * documented range (FULL {@code [0, d]}, EQUAL {@code [d/2, d]}); NONE is exact.
 */
public abstract class BackoffContract extends ComplianceTestBase {

  /**
   * Fails the leased message, then checks it comes back exactly after {@code delay}; returns the
   * next delivery.
   */
  private LeasedMessage failAndExpectRetryAfter(LeasedMessage leased, Duration delay) {
    Instant failedAt = now();
    SettleResult result = fail(leased);
    assertThat(result.visibleAt())
        .as("visibleAt after attempt %d", leased.attempt())
        .isEqualTo(failedAt.plus(delay));
    assertThat(message(leased.id()).visibleAt()).isEqualTo(failedAt.plus(delay));
    if (!delay.isZero()) {
      advance(delay.minus(MILLI));
      assertNothingLeasable(QUEUE);
      advance(MILLI);
    }
    LeasedMessage next = leaseOne(QUEUE);
    assertThat(next.id()).isEqualTo(leased.id());
    assertThat(next.attempt()).isEqualTo(leased.attempt() + 1);
    return next;
  }

  @Test
  void fail_defaultPolicy_backsOffOneTwoFourToSixtyMinutes() {
    createQueue(QUEUE, defaults().withMaxAttempts(9));
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    for (int minutes : new int[] {1, 2, 4, 8, 16, 32, 60, 60}) {
      leased = failAndExpectRetryAfter(leased, Duration.ofMinutes(minutes));
    }

    assertThat(leased.attempt()).isEqualTo(9);
    assertThat(fail(leased).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void fail_customExponentialBackoff_usesItsDelays() {
    createQueue(
        QUEUE,
        defaults()
            .withMaxAttempts(6)
            .withBackoff(
                new ExponentialBackoff(Duration.ofSeconds(10), 3.0, Duration.ofMinutes(5))));
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    for (long seconds : new long[] {10, 30, 90, 270, 300}) {
      leased = failAndExpectRetryAfter(leased, Duration.ofSeconds(seconds));
    }
  }

  @Test
  void fail_fractionalMultiplier_roundsToMillis() {
    createQueue(
        QUEUE,
        defaults()
            .withBackoff(
                new ExponentialBackoff(Duration.ofMillis(1000), 1.5, Duration.ofHours(1))));
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    for (long millis : new long[] {1000, 1500, 2250}) {
      leased = failAndExpectRetryAfter(leased, Duration.ofMillis(millis));
    }
  }

  @Test
  void fail_fixedCooldown_sameDelayThenDeadAfterNRuns() {
    createQueue(QUEUE, defaults().withRetry(3, Duration.ofSeconds(30)));
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    leased = failAndExpectRetryAfter(leased, Duration.ofSeconds(30));
    leased = failAndExpectRetryAfter(leased, Duration.ofSeconds(30));
    SettleResult last = fail(leased);

    assertThat(leased.attempt()).isEqualTo(3);
    assertThat(last.state()).isEqualTo(MessageState.DEAD);
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
  }

  @ParameterizedTest(name = "retry attempts = {0}")
  @ValueSource(ints = {0, 1})
  void fail_fixedCooldownZeroOrOneRuns_deadAtFirstFailure(int attempts) {
    createQueue(QUEUE, defaults().withRetry(attempts, Duration.ofSeconds(30)));
    String id = enqueue(QUEUE);

    SettleResult result = fail(leaseOne(QUEUE));

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(result.visibleAt()).isNull();
    assertThat(message(id).state()).isEqualTo(MessageState.DEAD);
    assertThat(message(id).attempts()).isEqualTo(1);
  }

  @Test
  void fail_zeroCooldown_leasableAtOnce() {
    createQueue(QUEUE, defaults().withRetry(2, Duration.ZERO));
    enqueue(QUEUE);

    failAndExpectRetryAfter(leaseOne(QUEUE), Duration.ZERO);
  }

  @Test
  void fail_retryAfter_overridesBackoffForThatAttempt() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);
    Instant failedAt = now();

    SettleResult result =
        redrive.fail(
            FailRequest.of(leased.token(), FailureReason.TRANSPORT_UNAVAILABLE, "429")
                .withRetryAfter(Duration.ofSeconds(7)));

    assertThat(result.visibleAt()).isEqualTo(failedAt.plusSeconds(7));
    advance(Duration.ofSeconds(7).minus(MILLI));
    assertNothingLeasable(QUEUE);
    advance(MILLI);
    LeasedMessage next = leaseOne(QUEUE);
    assertThat(next.attempt()).isEqualTo(2);
    failAndExpectRetryAfter(next, Duration.ofMinutes(2));
  }

  @Test
  void fail_retryAfterLongerThanBackoffCap_honoured() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    SettleResult result = failRetryAfter(leased, Duration.ofHours(3));

    assertThat(result.visibleAt()).isEqualTo(now().plus(Duration.ofHours(3)));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = FailureReason.class,
      names = {"VALIDATION_FAILURE", "SERIALIZATION_ERROR"})
  void fail_nonRetryableReason_deadAtOnce(FailureReason reason) {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    SettleResult result = fail(leaseOne(QUEUE), reason);

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(result.deadReason()).isEqualTo(reason);
    Message m = message(id);
    assertThat(m.state()).isEqualTo(MessageState.DEAD);
    assertThat(m.deadReason()).isEqualTo(reason);
    assertThat(m.deadAt()).isEqualTo(now());
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.lastError().retryable()).isFalse();
    assertNothingLeasable(QUEUE);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = FailureReason.class,
      names = {
        "HANDLER_EXCEPTION",
        "TIMEOUT_EXCEEDED",
        "TRANSPORT_UNAVAILABLE",
        "DEPENDENCY_FAILURE",
        "UNREGISTERED_HANDLER",
        "UNKNOWN"
      })
  void fail_retryableReason_comesBack(FailureReason reason) {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    SettleResult result = fail(leaseOne(QUEUE), reason);

    assertThat(result.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(message(id).lastError().reason()).isEqualTo(reason);
    assertThat(message(id).lastError().retryable()).isTrue();
  }

  @Test
  void fail_explicitNotRetryable_deadAtOnceWithItsReason() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);

    SettleResult result =
        redrive.fail(
            FailRequest.of(leaseOne(QUEUE).token(), FailureReason.HANDLER_EXCEPTION, "fatal")
                .withRetryable(false));

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    assertThat(message(id).lastError().retryable()).isFalse();
  }

  @Test
  void fail_explicitRetryableOnValidationFailure_retried() {
    createQueue(QUEUE);
    enqueue(QUEUE);

    SettleResult result =
        redrive.fail(
            FailRequest.of(leaseOne(QUEUE).token(), FailureReason.VALIDATION_FAILURE, "maybe")
                .withRetryable(true));

    assertThat(result.state()).isEqualTo(MessageState.SCHEDULED);
  }

  @Test
  void fail_atMaxAttempts_deadAtOnceWithoutExtraFetch() {
    createQueue(QUEUE, defaults().withMaxAttempts(2));
    String id = enqueue(QUEUE);
    failRetryAfter(leaseOne(QUEUE), Duration.ZERO);
    LeasedMessage second = leaseOne(QUEUE);

    SettleResult result = fail(second);

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(result.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
    Message m = message(id);
    assertThat(m.attempts()).isEqualTo(2);
    assertThat(m.lastError().attempt()).isEqualTo(2);
    assertThat(m.lastError().maxAttempts()).isEqualTo(2);
  }

  @Test
  void fail_atMaxAttemptsWithDeadLetterQueue_movedAtOnce() {
    createQueue(DLQ);
    createQueue(QUEUE, defaults().withMaxAttempts(1).withDeadLetter(DeadLetter.moveTo(DLQ)));
    enqueue(QUEUE);

    SettleResult result = fail(leaseOne(QUEUE));

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(result.deadLetterQueue()).isEqualTo(DLQ);
    assertThat(stats(DLQ).dead()).isEqualTo(1);
  }

  @Test
  void fail_afterLeaseExpiry_backoffFollowsAttemptNumber() {
    createQueue(QUEUE);
    enqueue(QUEUE);
    leaseOne(QUEUE, Duration.ofSeconds(10));
    advance(Duration.ofSeconds(10));
    LeasedMessage second = leaseOne(QUEUE);

    failAndExpectRetryAfter(second, Duration.ofMinutes(2));
  }

  @Test
  void fail_backingOffMessage_doesNotBlockOthers() {
    createQueue(QUEUE);
    String failing = enqueue(QUEUE);
    List<String> others = enqueueMany(QUEUE, 3);

    fail(leaseOne(QUEUE));

    assertThat(ids(lease(QUEUE, 10))).containsExactlyElementsOf(others).doesNotContain(failing);
  }

  // ---- UNREGISTERED_HANDLER: the same handling for every caller ----

  private SettleResult failUnregistered(LeasedMessage m) {
    return redrive.fail(FailRequest.of(m.token(), FailureReason.UNREGISTERED_HANDLER, null));
  }

  @Test
  void fail_unregisteredHandler_abandonedWithUnregisteredBackoffUntilPoisoned() {
    createQueue(QUEUE, defaults().withMaxAttempts(8));
    workerNamingTypeLive(QUEUE, TYPE);
    String id = enqueue(QUEUE);
    List<Long> seconds = List.of(1L, 2L, 4L, 8L, 16L, 32L, 60L, 60L);

    for (int attempt = 1; attempt <= seconds.size(); attempt++) {
      LeasedMessage leased = leaseOne(QUEUE);
      assertThat(leased.attempt()).isEqualTo(attempt);
      Duration delay = Duration.ofSeconds(seconds.get(attempt - 1));

      SettleResult result = failUnregistered(leased);

      assertThat(result.state()).isEqualTo(MessageState.SCHEDULED);
      assertThat(result.visibleAt()).isEqualTo(now().plus(delay));
      Message m = message(id);
      assertThat(m.attempts()).isEqualTo(attempt);
      HistoryEntry entry = last(m);
      assertThat(entry.outcome()).isEqualTo(Outcome.ABANDONED);
      assertThat(entry.attempt()).isEqualTo(attempt);
      assertThat(entry.failure().reason()).isEqualTo(FailureReason.UNREGISTERED_HANDLER);
      assertThat(entry.note())
          .isEqualTo(
              "no handler for type "
                  + TYPE
                  + " on worker "
                  + WORKER
                  + ", visible again after "
                  + delay);
      advance(delay.minus(MILLI));
      assertNothingLeasable(QUEUE);
      advance(MILLI);
    }

    assertThat(lease(QUEUE, 1).poisoned()).containsExactly(id);
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.POISON);
    assertThat(outcomes(id)).filteredOn(o -> o == Outcome.FAILED).isEmpty();
  }

  @Test
  void fail_unregisteredHandlerAtLastAttempt_notDeadUntilNextLease() {
    createQueue(QUEUE, defaults().withMaxAttempts(1));
    workerNamingTypeLive(QUEUE, TYPE);
    String id = enqueue(QUEUE);

    SettleResult result = failUnregistered(leaseOne(QUEUE));

    assertThat(result.state()).isEqualTo(MessageState.SCHEDULED);
    advance(Duration.ofSeconds(1));
    assertThat(lease(QUEUE, 1).poisoned()).containsExactly(id);
  }

  @Test
  void fail_unregisteredHandlerWithRetryAfterAndCallerText_retryAfterWinsTextKept() {
    createQueue(QUEUE);
    workerNamingTypeLive(QUEUE, TYPE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    SettleResult result =
        redrive.fail(
            FailRequest.of(leased.token(), FailureReason.UNREGISTERED_HANDLER, "py-worker v2")
                .withRetryAfter(Duration.ofSeconds(7)));

    assertThat(result.visibleAt()).isEqualTo(now().plusSeconds(7));
    assertThat(last(message(id)).note())
        .startsWith("no handler for type " + TYPE + " on worker " + WORKER + ": py-worker v2");
  }

  @Test
  void fail_unregisteredHandlerNotRetryable_deadAtOnceAsAFailure() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage leased = leaseOne(QUEUE);

    SettleResult result =
        redrive.fail(
            FailRequest.of(leased.token(), FailureReason.UNREGISTERED_HANDLER, "gone for good")
                .withRetryable(false));

    assertThat(result.state()).isEqualTo(MessageState.DEAD);
    assertThat(message(id).deadReason()).isEqualTo(FailureReason.UNREGISTERED_HANDLER);
    assertThat(outcomes(id)).containsExactly(Outcome.FAILED);
  }

  @Test
  void fail_unregisteredHandlerWithStaleToken_leaseLostAndNothingChanges() {
    createQueue(QUEUE);
    String id = enqueue(QUEUE);
    LeasedMessage first = leaseOne(QUEUE, Duration.ofSeconds(10));
    advance(Duration.ofSeconds(10));
    leaseOne(QUEUE);

    assertThatThrownBy(() -> failUnregistered(first)).isInstanceOf(LeaseLostException.class);

    assertThat(message(id).state()).isEqualTo(MessageState.LEASED);
    assertThat(message(id).attempts()).isEqualTo(2);
  }

  @Test
  void failAll_mixOfUnregisteredHandlerFailureAndLost_eachHandledAsFailWould() {
    createQueue(QUEUE, defaults().withMaxAttempts(3));
    workerNamingTypeLive(QUEUE, TYPE);
    List<String> ids = enqueueMany(QUEUE, 2);
    List<LeasedMessage> leased = lease(QUEUE, 2).leased();
    String unknown = unknownToken();

    FailAllResult result =
        redrive.failAll(
            List.of(
                FailRequest.of(leased.get(0).token(), FailureReason.UNREGISTERED_HANDLER, null),
                FailRequest.of(leased.get(1).token(), FailureReason.HANDLER_EXCEPTION, "boom"),
                FailRequest.of(unknown, FailureReason.UNREGISTERED_HANDLER, null)));

    assertThat(result.failed())
        .extracting(SettleResult::messageId)
        .containsExactly(ids.get(0), ids.get(1));
    assertThat(result.lost()).containsExactly(unknown.substring(0, unknown.indexOf('.')));
    assertThat(message(ids.get(0)).visibleAt()).isEqualTo(now().plusSeconds(1));
    assertThat(last(message(ids.get(0))).outcome()).isEqualTo(Outcome.ABANDONED);
    assertThat(last(message(ids.get(1))).outcome()).isEqualTo(Outcome.FAILED);
  }

  /**
   * Fails {@code count} messages of a queue whose backoff is {@code backoff} at the same instant
   * and returns each one's delay until it is visible again, checking the stored time agrees.
   */
  private List<Duration> jitteredDelays(FixedBackoff backoff, int count) {
    createQueue(QUEUE, defaults().withBackoff(backoff));
    enqueueMany(QUEUE, count);
    List<Duration> delays = new java.util.ArrayList<>();
    for (LeasedMessage leased : lease(QUEUE, count).leased()) {
      SettleResult result = fail(leased);
      assertThat(message(leased.id()).visibleAt()).isEqualTo(result.visibleAt());
      delays.add(Duration.between(now(), result.visibleAt()));
    }
    assertThat(delays).hasSize(count);
    return delays;
  }

  @Test
  void fail_fullJitter_retryWithinZeroToTheDelayAndSpread() {
    List<Duration> delays =
        jitteredDelays(new FixedBackoff(Duration.ofSeconds(10), Jitter.FULL), 20);

    assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(Duration.ZERO, SECONDS_10));
    assertThat(new java.util.HashSet<>(delays)).as("spread, not one wave").hasSizeGreaterThan(1);
  }

  @Test
  void fail_equalJitter_retryWithinHalfTheDelayToTheDelay() {
    List<Duration> delays =
        jitteredDelays(new FixedBackoff(Duration.ofSeconds(10), Jitter.EQUAL), 20);

    assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(Duration.ofSeconds(5), SECONDS_10));
    assertThat(new java.util.HashSet<>(delays)).as("spread, not one wave").hasSizeGreaterThan(1);
  }

  @Test
  void fail_noJitter_everyMessageExactlyAfterTheDelay() {
    List<Duration> delays =
        jitteredDelays(new FixedBackoff(Duration.ofSeconds(10), Jitter.NONE), 5);

    assertThat(delays).containsOnly(SECONDS_10);
  }

  @Test
  void failRetryAfter_jitteredQueue_retryAfterIsExact() {
    createQueue(
        QUEUE, defaults().withBackoff(new FixedBackoff(Duration.ofSeconds(10), Jitter.FULL)));
    enqueue(QUEUE);

    SettleResult result = failRetryAfter(leaseOne(QUEUE), Duration.ofSeconds(42));

    assertThat(result.visibleAt()).isEqualTo(now().plusSeconds(42));
  }

  @Test
  void updateQueue_jitterAlone_keepsTheDelaysAndReadsBack() {
    ExponentialBackoff backoff =
        new ExponentialBackoff(Duration.ofSeconds(10), 3.0, Duration.ofMinutes(5));
    createQueue(QUEUE, defaults().withBackoff(backoff));

    redrive.updateQueue(QUEUE, QueueUpdate.builder().backoffJitter(Jitter.EQUAL).build());

    assertThat(redrive.getQueue(QUEUE).policy().backoff())
        .isEqualTo(backoff.withJitter(Jitter.EQUAL));
    redrive.updateQueue(QUEUE, QueueUpdate.builder().backoffJitter(Jitter.NONE).build());
    assertThat(redrive.getQueue(QUEUE).policy().backoff()).isEqualTo(backoff);
  }

  private static final Duration SECONDS_10 = Duration.ofSeconds(10);
}
