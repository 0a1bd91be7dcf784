package io.redrive.queue;

import io.redrive.retry.Backoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.time.DurationText;
import java.time.Duration;

/**
 * The failure-handling settings of one queue. Immutable and validated on construction; every error
 * names the setting and the value.
 *
 * @param maxAttempts deliveries allowed (1–10 000); the lease after the last one dead-letters the
 *     message as POISON
 * @param leaseTimeout how long a lease lasts unless renewed
 * @param backoff delay before the next delivery after a failed attempt
 * @param expireAfter deadline after enqueue past which the message dies as EXPIRED, or null
 * @param deadLetter where dead messages go
 * @param streamPolicy what later messages of a stream do when its head fails
 * @param maxCrashes the crash-loop breaker: when a message's lease has run out on this many
 *     distinct workers since its attempts were last reset (each worker vanished holding it: a
 *     crash, an OOM kill, a hang), the lease expiry that makes the count reach it dead-letters the
 *     message as POISON instead of making it ready again, whatever attempts are left (0–10 000; 0,
 *     the default, turns it off)
 * @param completedRetention how long a completed message's story (state, attempts, times, worker,
 *     history) is kept after it completes, findable by id and listed as COMPLETED (0s–90d; 0s keeps
 *     nothing); null follows the engine's default ({@code Redrive.Builder.completedRetention})
 * @param priority the default priority of its messages and how much a step of priority is worth
 *     ({@link PriorityPolicy}); null means {@link PriorityPolicy#defaults()}
 * @param limits caps on running messages and rates of leasing, in all and per limit key ({@link
 *     FlowLimits#NONE} when none; null reads as none)
 * @param circuit the circuit breaker of its dependencies, or null (off, the default)
 */
public record QueuePolicy(
    int maxAttempts,
    Duration leaseTimeout,
    Backoff backoff,
    Duration expireAfter,
    DeadLetter deadLetter,
    StreamPolicy streamPolicy,
    int maxCrashes,
    Duration completedRetention,
    PriorityPolicy priority,
    FlowLimits limits,
    CircuitPolicy circuit) {

  /** Default deliveries per message. */
  public static final int DEFAULT_MAX_ATTEMPTS = 5;

  /** Highest allowed {@code maxAttempts}. */
  public static final int MAX_MAX_ATTEMPTS = 10_000;

  /** Default lease (visibility) timeout. */
  public static final Duration DEFAULT_LEASE_TIMEOUT = Duration.ofSeconds(30);

  /** Longest allowed lease timeout. */
  public static final Duration MAX_LEASE_TIMEOUT = Duration.ofHours(12);

  /**
   * Default {@code maxCrashes}: off, so a plain queue spends its attempts on lease expiries as it
   * always did. The workflow runtime creates its activity queues with its own {@code maxCrashes}.
   */
  public static final int DEFAULT_MAX_CRASHES = 0;

  /** Longest allowed {@code completedRetention}. */
  public static final Duration MAX_COMPLETED_RETENTION = Duration.ofDays(90);

  public QueuePolicy {
    if (maxAttempts < 1 || maxAttempts > MAX_MAX_ATTEMPTS) {
      throw new IllegalArgumentException(
          "maxAttempts: must be between 1 and " + MAX_MAX_ATTEMPTS + ", was " + maxAttempts);
    }
    requireLeaseTimeout(leaseTimeout);
    if (backoff == null) {
      throw new IllegalArgumentException("backoff: is required");
    }
    if (expireAfter != null && (expireAfter.isNegative() || expireAfter.isZero())) {
      throw new IllegalArgumentException(
          "expireAfter: must be positive, was " + DurationText.format(expireAfter));
    }
    if (deadLetter == null) {
      throw new IllegalArgumentException("deadLetter: is required");
    }
    if (streamPolicy == null) {
      throw new IllegalArgumentException("streamPolicy: is required");
    }
    requireMaxCrashes(maxCrashes);
    if (completedRetention != null) {
      requireCompletedRetention(completedRetention);
    }
    priority = priority == null ? PriorityPolicy.defaults() : priority;
    limits = limits == null ? FlowLimits.NONE : limits;
  }

  /** A policy with the default priorities and no flow limits. */
  public QueuePolicy(
      int maxAttempts,
      Duration leaseTimeout,
      Backoff backoff,
      Duration expireAfter,
      DeadLetter deadLetter,
      StreamPolicy streamPolicy,
      int maxCrashes,
      Duration completedRetention) {
    this(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        null,
        FlowLimits.NONE,
        null);
  }

  /** A policy whose completed messages follow the engine's default retention. */
  public QueuePolicy(
      int maxAttempts,
      Duration leaseTimeout,
      Backoff backoff,
      Duration expireAfter,
      DeadLetter deadLetter,
      StreamPolicy streamPolicy,
      int maxCrashes) {
    this(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        null);
  }

  /** A policy without the crash-loop breaker ({@code maxCrashes} 0). */
  public QueuePolicy(
      int maxAttempts,
      Duration leaseTimeout,
      Backoff backoff,
      Duration expireAfter,
      DeadLetter deadLetter,
      StreamPolicy streamPolicy) {
    this(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        DEFAULT_MAX_CRASHES);
  }

  /**
   * The defaults: 5 attempts, 30 s lease, exponential backoff, keep dead in place, HOLD, no
   * crash-loop breaker.
   */
  public static QueuePolicy defaults() {
    return new QueuePolicy(
        DEFAULT_MAX_ATTEMPTS,
        DEFAULT_LEASE_TIMEOUT,
        Backoff.defaultBackoff(),
        null,
        DeadLetter.keep(),
        StreamPolicy.HOLD,
        DEFAULT_MAX_CRASHES);
  }

  /**
   * The short retry form {@code retry = { attempts = N, cooldown = D }}: N total runs (0 or 1 means
   * no retry), a fixed delay between them.
   */
  public QueuePolicy withRetry(int attempts, Duration cooldown) {
    if (attempts < 0 || attempts > MAX_MAX_ATTEMPTS) {
      throw new IllegalArgumentException(
          "retry.attempts: must be between 0 and " + MAX_MAX_ATTEMPTS + ", was " + attempts);
    }
    return new QueuePolicy(
        Math.max(1, attempts),
        leaseTimeout,
        new FixedBackoff(cooldown, backoff.jitter()),
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  public QueuePolicy withMaxAttempts(int value) {
    return new QueuePolicy(
        value,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  public QueuePolicy withLeaseTimeout(Duration value) {
    return new QueuePolicy(
        maxAttempts,
        value,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  public QueuePolicy withBackoff(Backoff value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        value,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  public QueuePolicy withExpireAfter(Duration value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        value,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  public QueuePolicy withDeadLetter(DeadLetter value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        value,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  public QueuePolicy withStreamPolicy(StreamPolicy value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        value,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  public QueuePolicy withMaxCrashes(int value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        value,
        completedRetention,
        priority,
        limits,
        circuit);
  }

  /** This policy with its own retention of completed messages (null: the engine's default). */
  public QueuePolicy withCompletedRetention(Duration value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        value,
        priority,
        limits,
        circuit);
  }

  /** This policy with other priority settings. */
  public QueuePolicy withPriority(PriorityPolicy value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        value,
        limits,
        circuit);
  }

  /** This policy with flow limits {@code value} (null or {@link FlowLimits#NONE}: none). */
  public QueuePolicy withLimits(FlowLimits value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        value,
        circuit);
  }

  /** This policy with circuit breaker {@code value} (null: off). */
  public QueuePolicy withCircuit(CircuitPolicy value) {
    return new QueuePolicy(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        deadLetter,
        streamPolicy,
        maxCrashes,
        completedRetention,
        priority,
        limits,
        value);
  }

  /** Validates a {@code completedRetention} given anywhere (policy, update, engine default). */
  public static Duration requireCompletedRetention(Duration value) {
    if (value == null
        || value.isNegative()
        || value.compareTo(MAX_COMPLETED_RETENTION) > 0
        || (!value.isZero() && value.toMillis() < 1)) {
      throw new IllegalArgumentException(
          "completedRetention: must be between 0s (keep nothing) and 90d, was "
              + (value == null ? "null" : DurationText.format(value)));
    }
    return value;
  }

  /** Validates a {@code maxCrashes} given anywhere (policy, update, configuration). */
  public static int requireMaxCrashes(int maxCrashes) {
    if (maxCrashes < 0 || maxCrashes > MAX_MAX_ATTEMPTS) {
      throw new IllegalArgumentException(
          "maxCrashes: must be between 0 (off) and " + MAX_MAX_ATTEMPTS + ", was " + maxCrashes);
    }
    return maxCrashes;
  }

  /** Validates a lease timeout given anywhere (policy, lease request, renew). */
  public static Duration requireLeaseTimeout(Duration leaseTimeout) {
    if (leaseTimeout == null) {
      throw new IllegalArgumentException("leaseTimeout: is required");
    }
    if (leaseTimeout.toMillis() < 1 || leaseTimeout.compareTo(MAX_LEASE_TIMEOUT) > 0) {
      throw new IllegalArgumentException(
          "leaseTimeout: must be between 1ms and 12h, was " + DurationText.format(leaseTimeout));
    }
    return leaseTimeout;
  }
}
