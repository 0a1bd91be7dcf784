package io.redrive.engine;

import io.redrive.failure.FailureReason;
import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.StreamPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The delivery decisions every store applies inside its own transaction: whether a lease delivers,
 * poisons or expires a message, whether a failure retries or kills it, and where a dead message
 * goes. Pure functions of their inputs; thread-safe.
 */
public final class DeliveryRules {
  private DeliveryRules() {}

  /** What a lease does with one candidate message. */
  public enum LeaseVerdict {
    DELIVER,
    POISON,
    EXPIRE
  }

  /**
   * Decides a lease: a message past its deadline expires; one whose next attempt would exceed
   * {@code maxAttempts} is poison; otherwise it is delivered.
   *
   * @param attemptsSoFar deliveries before this lease
   */
  public static LeaseVerdict onLease(
      int attemptsSoFar, int maxAttempts, Instant expireAt, Instant now) {
    if (expireAt != null && !expireAt.isAfter(now)) {
      return LeaseVerdict.EXPIRE;
    }
    if (attemptsSoFar + 1 > maxAttempts) {
      return LeaseVerdict.POISON;
    }
    return LeaseVerdict.DELIVER;
  }

  /**
   * The result of a failed attempt: retry at {@code visibleAt}, or dead.
   *
   * @param retry true to deliver again later
   * @param visibleAt when it is visible again (retry only)
   * @param retryable whether the failure itself was retryable (recorded in history)
   */
  public record FailVerdict(boolean retry, Instant visibleAt, boolean retryable) {}

  /**
   * Decides a failed attempt: a non-retryable failure, or one at or past the attempt limit, dies
   * now; otherwise the message comes back after {@code retryAfter} or the queue's backoff.
   *
   * @param attempt the number of the attempt that failed (the message's attempts)
   */
  public static FailVerdict onFailure(
      QueuePolicy policy,
      int attempt,
      FailureReason reason,
      Boolean retryable,
      Duration retryAfter,
      Instant now) {
    // Each store thread draws its own jitter; a queue without jitter never draws.
    return onFailure(
        policy, attempt, reason, retryable, retryAfter, now, ThreadLocalRandom.current());
  }

  /**
   * {@link #onFailure(QueuePolicy, int, FailureReason, Boolean, Duration, Instant)} drawing the
   * backoff's jitter from {@code random} (a seeded one makes it repeatable). An explicit {@code
   * retryAfter} is never spread.
   */
  public static FailVerdict onFailure(
      QueuePolicy policy,
      int attempt,
      FailureReason reason,
      Boolean retryable,
      Duration retryAfter,
      Instant now,
      RandomGenerator random) {
    boolean canRetry = retryable != null ? retryable : reason.retryableByDefault();
    if (!canRetry || attempt >= policy.maxAttempts()) {
      return new FailVerdict(false, null, canRetry);
    }
    Duration delay =
        retryAfter != null
            ? retryAfter
            : policy.backoff().jitteredDelayAfter(Math.max(1, attempt), random);
    return new FailVerdict(true, now.plus(delay), true);
  }

  /**
   * Decides a failed attempt of a message in a queue of the workflow runtime (a workflow-owned
   * queue): a handler's failure always ends the message, whatever its attempts, and goes to its
   * workflow instance as the activity's result, where the activity's retry policy decides; the
   * queue never retries it. The verdict records whether the failure itself was retryable.
   */
  public static FailVerdict onActivityFailure(FailureReason reason, Boolean retryable) {
    boolean canRetry = retryable != null ? retryable : reason.retryableByDefault();
    return new FailVerdict(false, null, canRetry);
  }

  /** How a message of a workflow-owned queue ends when it dies. */
  public enum ActivityDeath {
    /**
     * The handler gave a result (it failed, or gave up at once): the message and its attempt story
     * are deleted; the story travels in the result.
     */
    END_WITH_RESULT,
    /**
     * No handler gave a result (poison at lease, a passed deadline): the message stays DEAD in
     * place with its story, so an operator can read it and retry it there; the instance gets the
     * failure.
     */
    KEEP_DEAD
  }

  /** How a workflow-owned queue's message that dies for {@code reason} ends. */
  public static ActivityDeath onActivityDeath(FailureReason reason) {
    return reason == FailureReason.POISON || reason == FailureReason.EXPIRED
        ? ActivityDeath.KEEP_DEAD
        : ActivityDeath.END_WITH_RESULT;
  }

  /**
   * Where a message that dies in a queue with {@code policy} goes. A stream message of a HALT queue
   * stays in place, so the halt is visible and a retry restores the order.
   */
  public static DeadLetter.Mode route(QueuePolicy policy, String stream) {
    if (stream != null && policy.streamPolicy() == StreamPolicy.HALT) {
      return DeadLetter.Mode.KEEP;
    }
    return policy.deadLetter().mode();
  }

  /**
   * The display text of a POISON failure, e.g. {@code poison: message 01H… (type send-email)
   * exceeded 6 attempts (max 5)}.
   */
  public static String poisonText(String id, String type, int attempt, int maxAttempts) {
    return "poison: message "
        + id
        + " (type "
        + type
        + ") exceeded "
        + attempt
        + " attempts (max "
        + maxAttempts
        + ")";
  }

  /**
   * The distinct workers whose lease on a message ran out (outcome LEASE_EXPIRED: each vanished
   * holding it) since its attempts were last reset by a retry, a redrive, a dead-letter move or an
   * import, in the order they first crashed. The worker is the one the history entry names (the
   * lease request's {@code worker}); a worker that crashed on the message twice is one. An expiry
   * whose entry records {@link CrashEvidence#OUTAGE} is no crash (no node was alive across it);
   * entries without evidence count.
   *
   * @param history the message's history, oldest first
   */
  public static List<String> crashedWorkers(List<HistoryEntry> history) {
    Set<String> workers = new LinkedHashSet<>();
    for (HistoryEntry e : history) {
      switch (e.outcome()) {
        case RETRIED, REDRIVEN, DEAD_LETTERED, IMPORTED -> workers.clear();
        case LEASE_EXPIRED -> {
          if (e.worker() != null
              && CrashEvidence.of(e).orElse(CrashEvidence.WORKER_DIED)
                  == CrashEvidence.WORKER_DIED) {
            workers.add(e.worker());
          }
        }
        default -> {}
      }
    }
    return new ArrayList<>(workers);
  }

  /**
   * Decides the crash-loop breaker at a lease expiry: true when the message, its lease just run
   * out, has now crashed {@code maxCrashes} distinct workers and must be poisoned instead of made
   * ready again. Always false when {@code maxCrashes} is 0 (off).
   *
   * @param crashedWorkers {@link #crashedWorkers} of its history, the expiry just recorded included
   */
  public static boolean isCrashLoop(List<String> crashedWorkers, int maxCrashes) {
    return maxCrashes > 0 && crashedWorkers.size() >= maxCrashes;
  }

  /**
   * The display text of a POISON failure by the crash-loop breaker, e.g. {@code poison: message
   * 01H… (type send-email) crashed 2 workers (node-a, node-b) in 3 attempts (max crashes 2)};
   * {@code attempt} is the delivery the breaker refused, as for {@link #poisonText}.
   */
  public static String crashLoopText(
      String id, String type, List<String> workers, int attempt, int maxCrashes) {
    return "poison: message "
        + id
        + " (type "
        + type
        + ") crashed "
        + workers.size()
        + " workers ("
        + String.join(", ", workers)
        + ") in "
        + attempt
        + " attempts (max crashes "
        + maxCrashes
        + ")";
  }

  /** The display text of an EXPIRED failure. */
  public static String expiredText(String id, String type, Instant expireAt) {
    return "expired: message " + id + " (type " + type + ") passed its deadline " + expireAt;
  }
}
