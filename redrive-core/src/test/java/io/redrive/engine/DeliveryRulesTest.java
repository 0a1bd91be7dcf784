package io.redrive.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.StreamPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeliveryRulesTest {
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private final QueuePolicy policy = QueuePolicy.defaults();

  @Test
  void onLease_lastAllowedAttempt_delivers() {
    assertThat(DeliveryRules.onLease(4, 5, null, NOW))
        .isEqualTo(DeliveryRules.LeaseVerdict.DELIVER);
  }

  @Test
  void onLease_pastMaxAttempts_poisons() {
    assertThat(DeliveryRules.onLease(5, 5, null, NOW)).isEqualTo(DeliveryRules.LeaseVerdict.POISON);
  }

  @Test
  void onLease_deadlineReached_expiresBeforePoison() {
    assertThat(DeliveryRules.onLease(5, 5, NOW, NOW)).isEqualTo(DeliveryRules.LeaseVerdict.EXPIRE);
  }

  @Test
  void onFailure_retryable_backsOffByAttempt() {
    var v = DeliveryRules.onFailure(policy, 3, FailureReason.HANDLER_EXCEPTION, null, null, NOW);
    assertThat(v.retry()).isTrue();
    assertThat(v.visibleAt()).isEqualTo(NOW.plus(Duration.ofMinutes(4)));
  }

  @Test
  void onFailure_retryAfter_overridesBackoff() {
    var v =
        DeliveryRules.onFailure(
            policy, 1, FailureReason.DEPENDENCY_FAILURE, null, Duration.ofSeconds(7), NOW);
    assertThat(v.visibleAt()).isEqualTo(NOW.plusSeconds(7));
  }

  @Test
  void onFailure_atLimit_dies() {
    assertThat(
            DeliveryRules.onFailure(policy, 5, FailureReason.HANDLER_EXCEPTION, null, null, NOW)
                .retry())
        .isFalse();
  }

  @Test
  void onFailure_validation_diesAtOnce() {
    assertThat(
            DeliveryRules.onFailure(policy, 1, FailureReason.VALIDATION_FAILURE, null, null, NOW)
                .retry())
        .isFalse();
  }

  @Test
  void onFailure_explicitlyNotRetryable_dies() {
    assertThat(
            DeliveryRules.onFailure(policy, 1, FailureReason.HANDLER_EXCEPTION, false, null, NOW)
                .retry())
        .isFalse();
  }

  @Test
  void onActivityFailure_attemptsLeft_stillEndsTheMessage_keepingWhetherItWasRetryable() {
    var retryable = DeliveryRules.onActivityFailure(FailureReason.HANDLER_EXCEPTION, null);
    assertThat(retryable.retry())
        .as("the activity's retry policy decides, not the queue")
        .isFalse();
    assertThat(retryable.visibleAt()).isNull();
    assertThat(retryable.retryable()).isTrue();
    assertThat(DeliveryRules.onActivityFailure(FailureReason.VALIDATION_FAILURE, null).retryable())
        .isFalse();
    assertThat(DeliveryRules.onActivityFailure(FailureReason.HANDLER_EXCEPTION, false).retryable())
        .isFalse();
  }

  @Test
  void onActivityDeath_withoutAHandlerResult_keepsTheMessageDead_elseEndsWithTheResult() {
    assertThat(DeliveryRules.onActivityDeath(FailureReason.POISON))
        .isEqualTo(DeliveryRules.ActivityDeath.KEEP_DEAD);
    assertThat(DeliveryRules.onActivityDeath(FailureReason.EXPIRED))
        .isEqualTo(DeliveryRules.ActivityDeath.KEEP_DEAD);
    for (FailureReason handlerSaid :
        java.util.EnumSet.complementOf(
            java.util.EnumSet.of(FailureReason.POISON, FailureReason.EXPIRED))) {
      assertThat(DeliveryRules.onActivityDeath(handlerSaid))
          .as("%s", handlerSaid)
          .isEqualTo(DeliveryRules.ActivityDeath.END_WITH_RESULT);
    }
  }

  @Test
  void route_haltStreamMessage_staysInPlace() {
    QueuePolicy p =
        policy.withDeadLetter(DeadLetter.moveTo("dlq")).withStreamPolicy(StreamPolicy.HALT);
    assertThat(DeliveryRules.route(p, "s1")).isEqualTo(DeadLetter.Mode.KEEP);
    assertThat(DeliveryRules.route(p, null)).isEqualTo(DeadLetter.Mode.MOVE);
  }

  @Test
  void poisonText_matchesArchitecture() {
    assertThat(DeliveryRules.poisonText("01H", "send-email", 6, 5))
        .isEqualTo("poison: message 01H (type send-email) exceeded 6 attempts (max 5)");
  }

  @Test
  void crashedWorkers_distinctLeaseExpiriesSinceTheLastReset_inFirstCrashOrder() {
    List<HistoryEntry> history =
        List.of(
            entry(Outcome.LEASE_EXPIRED, "w-old"),
            entry(Outcome.RETRIED, "operator"),
            entry(Outcome.LEASE_EXPIRED, "w-b"),
            entry(Outcome.FAILED, "w-c"),
            entry(Outcome.LEASE_EXPIRED, "w-a"),
            entry(Outcome.LEASE_EXPIRED, "w-b"));

    assertThat(DeliveryRules.crashedWorkers(history)).containsExactly("w-b", "w-a");
    assertThat(DeliveryRules.isCrashLoop(List.of("w-b", "w-a"), 2)).isTrue();
    assertThat(DeliveryRules.isCrashLoop(List.of("w-b", "w-a"), 3)).isFalse();
    assertThat(DeliveryRules.isCrashLoop(List.of("w-b", "w-a"), 0)).isFalse();
  }

  @Test
  void crashedWorkers_outageExpiriesDoNotCount_entriesWithoutEvidenceStillDo() {
    List<HistoryEntry> history =
        List.of(
            noted("w-outage", CrashEvidence.OUTAGE.note()),
            noted("w-died", CrashEvidence.WORKER_DIED.note()),
            noted("w-old", null),
            noted("w-other-note", "something else"));

    assertThat(DeliveryRules.crashedWorkers(history))
        .containsExactly("w-died", "w-old", "w-other-note");
    assertThat(CrashEvidence.of(history.get(0))).contains(CrashEvidence.OUTAGE);
    assertThat(CrashEvidence.of(history.get(1))).contains(CrashEvidence.WORKER_DIED);
    assertThat(CrashEvidence.of(history.get(2))).isEmpty();
    assertThat(CrashEvidence.of(entry(Outcome.FAILED, "w"))).isEmpty();
    assertThat(CrashEvidence.OUTAGE.word()).isEqualTo("outage");
    assertThat(CrashEvidence.WORKER_DIED.word()).isEqualTo("worker-died");
  }

  @Test
  void crashLoopText_alignsWithTheTurnBreaker() {
    assertThat(DeliveryRules.crashLoopText("01H", "send-email", List.of("a", "b"), 3, 2))
        .isEqualTo(
            "poison: message 01H (type send-email) crashed 2 workers (a, b) in 3 attempts"
                + " (max crashes 2)");
  }

  private static HistoryEntry noted(String worker, String note) {
    return new HistoryEntry(1, Outcome.LEASE_EXPIRED, worker, null, NOW, null, note);
  }

  private static HistoryEntry entry(Outcome outcome, String worker) {
    return new HistoryEntry(1, outcome, worker, null, NOW, null, null);
  }
}
