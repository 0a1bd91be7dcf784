package io.redrive.queue;

import io.redrive.retry.Backoff;
import io.redrive.retry.Jitter;
import java.time.Duration;

/**
 * A partial change to a queue's policy: fields left null keep their current value (merge
 * semantics). Build with {@link #builder()}.
 *
 * <p>{@code clearDeadLetterQueue} removes the dead-letter queue: a queue that moved its dead
 * letters keeps them in place from then on (KEEP); a queue without one is unchanged. It cannot be
 * combined with {@code deadLetter}, which already says where dead letters go.
 *
 * <p>{@code backoffJitter} sets the backoff's jitter, keeping its delays; {@code circuit} replaces
 * the circuit breaker's settings, {@code clearCircuit} turns it off.
 */
public record QueueUpdate(
    Integer maxAttempts,
    Duration leaseTimeout,
    Backoff backoff,
    Duration expireAfter,
    Boolean clearExpireAfter,
    DeadLetter deadLetter,
    StreamPolicy streamPolicy,
    Boolean clearDeadLetterQueue,
    Integer maxCrashes,
    Duration completedRetention,
    Boolean clearCompletedRetention,
    Integer defaultPriority,
    Duration priorityAging,
    FlowLimits limits,
    Boolean clearLimits,
    Jitter backoffJitter,
    CircuitPolicy circuit,
    Boolean clearCircuit) {

  public QueueUpdate {
    if (defaultPriority != null) {
      PriorityPolicy.requirePriority("defaultPriority", defaultPriority);
    }
    if (priorityAging != null) {
      PriorityPolicy.requireAging(priorityAging);
    }
    if (maxCrashes != null) {
      QueuePolicy.requireMaxCrashes(maxCrashes);
    }
    if (completedRetention != null) {
      QueuePolicy.requireCompletedRetention(completedRetention);
      if (Boolean.TRUE.equals(clearCompletedRetention)) {
        throw new IllegalArgumentException(
            "completedRetention: give a duration or \"default\", not both");
      }
    }
    if (Boolean.TRUE.equals(clearDeadLetterQueue) && deadLetter != null) {
      throw new IllegalArgumentException(
          "deadLetterQueue: clearing it cannot be combined with deadLetter (give deadLetter"
              + " \"keep\" or \"discard\" alone)");
    }
  }

  /** An update that leaves the priority settings and the flow limits as they are. */
  public QueueUpdate(
      Integer maxAttempts,
      Duration leaseTimeout,
      Backoff backoff,
      Duration expireAfter,
      Boolean clearExpireAfter,
      DeadLetter deadLetter,
      StreamPolicy streamPolicy,
      Boolean clearDeadLetterQueue,
      Integer maxCrashes,
      Duration completedRetention,
      Boolean clearCompletedRetention) {
    this(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        clearExpireAfter,
        deadLetter,
        streamPolicy,
        clearDeadLetterQueue,
        maxCrashes,
        completedRetention,
        clearCompletedRetention,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  /** An update that leaves the retention of completed messages as it is. */
  public QueueUpdate(
      Integer maxAttempts,
      Duration leaseTimeout,
      Backoff backoff,
      Duration expireAfter,
      Boolean clearExpireAfter,
      DeadLetter deadLetter,
      StreamPolicy streamPolicy,
      Boolean clearDeadLetterQueue,
      Integer maxCrashes) {
    this(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        clearExpireAfter,
        deadLetter,
        streamPolicy,
        clearDeadLetterQueue,
        maxCrashes,
        null,
        null);
  }

  /** An update that leaves {@code maxCrashes} as it is. */
  public QueueUpdate(
      Integer maxAttempts,
      Duration leaseTimeout,
      Backoff backoff,
      Duration expireAfter,
      Boolean clearExpireAfter,
      DeadLetter deadLetter,
      StreamPolicy streamPolicy,
      Boolean clearDeadLetterQueue) {
    this(
        maxAttempts,
        leaseTimeout,
        backoff,
        expireAfter,
        clearExpireAfter,
        deadLetter,
        streamPolicy,
        clearDeadLetterQueue,
        null);
  }

  /** Applies this update to {@code current}, validating the result. */
  public QueuePolicy applyTo(QueuePolicy current) {
    QueuePolicy p = current;
    if (maxAttempts != null) {
      p = p.withMaxAttempts(maxAttempts);
    }
    if (leaseTimeout != null) {
      p = p.withLeaseTimeout(leaseTimeout);
    }
    if (backoff != null) {
      p = p.withBackoff(backoff);
    }
    if (backoffJitter != null) {
      p = p.withBackoff(p.backoff().withJitter(backoffJitter));
    }
    if (circuit != null || Boolean.TRUE.equals(clearCircuit)) {
      p = p.withCircuit(circuit);
    }
    if (Boolean.TRUE.equals(clearExpireAfter)) {
      p = p.withExpireAfter(null);
    } else if (expireAfter != null) {
      p = p.withExpireAfter(expireAfter);
    }
    if (deadLetter != null) {
      p = p.withDeadLetter(deadLetter);
    } else if (Boolean.TRUE.equals(clearDeadLetterQueue)
        && p.deadLetter().mode() == DeadLetter.Mode.MOVE) {
      p = p.withDeadLetter(DeadLetter.keep());
    }
    if (streamPolicy != null) {
      p = p.withStreamPolicy(streamPolicy);
    }
    if (maxCrashes != null) {
      p = p.withMaxCrashes(maxCrashes);
    }
    if (Boolean.TRUE.equals(clearCompletedRetention)) {
      p = p.withCompletedRetention(null);
    } else if (completedRetention != null) {
      p = p.withCompletedRetention(completedRetention);
    }
    if (defaultPriority != null) {
      p = p.withPriority(p.priority().withDefaultPriority(defaultPriority));
    }
    if (priorityAging != null) {
      p = p.withPriority(p.priority().withAging(priorityAging));
    }
    if (Boolean.TRUE.equals(clearLimits)) {
      p = p.withLimits(FlowLimits.NONE);
    }
    if (limits != null) {
      p = p.withLimits(p.limits().merge(limits));
    }
    return p;
  }

  /** True when the update changes nothing. */
  public boolean isEmpty() {
    return maxAttempts == null
        && leaseTimeout == null
        && backoff == null
        && expireAfter == null
        && clearExpireAfter == null
        && deadLetter == null
        && streamPolicy == null
        && clearDeadLetterQueue == null
        && maxCrashes == null
        && completedRetention == null
        && clearCompletedRetention == null
        && defaultPriority == null
        && priorityAging == null
        && limits == null
        && clearLimits == null
        && backoffJitter == null
        && circuit == null
        && clearCircuit == null;
  }

  /**
   * An update that sets every field of {@code policy} (an absent {@code expireAfter} clears it), so
   * that a queue it is applied to ends with exactly that policy.
   */
  public static QueueUpdate everyField(QueuePolicy policy) {
    if (policy == null) {
      throw new IllegalArgumentException("policy: is required");
    }
    Builder update =
        builder()
            .maxAttempts(policy.maxAttempts())
            .leaseTimeout(policy.leaseTimeout())
            .backoff(policy.backoff())
            .deadLetter(policy.deadLetter())
            .streamPolicy(policy.streamPolicy())
            .maxCrashes(policy.maxCrashes())
            .defaultPriority(policy.priority().defaultPriority())
            .priorityAging(policy.priority().aging())
            .clearLimits()
            .limits(policy.limits())
            .circuit(policy.circuit());
    if (policy.completedRetention() == null) {
      update.clearCompletedRetention();
    } else {
      update.completedRetention(policy.completedRetention());
    }
    if (policy.expireAfter() == null) {
      update.clearExpireAfter();
    } else {
      update.expireAfter(policy.expireAfter());
    }
    return update.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder of {@link QueueUpdate}; not thread-safe. */
  public static final class Builder {
    private Integer maxAttempts;
    private Duration leaseTimeout;
    private Backoff backoff;
    private Duration expireAfter;
    private Boolean clearExpireAfter;
    private DeadLetter deadLetter;
    private StreamPolicy streamPolicy;
    private Boolean clearDeadLetterQueue;
    private Integer maxCrashes;
    private Duration completedRetention;
    private Boolean clearCompletedRetention;
    private Integer defaultPriority;
    private Duration priorityAging;
    private FlowLimits limits;
    private Boolean clearLimits;
    private Jitter backoffJitter;
    private CircuitPolicy circuit;
    private Boolean clearCircuit;

    /** The circuit breaker's settings (all of them); null with {@link #clearCircuit}: off. */
    public Builder circuit(CircuitPolicy value) {
      this.circuit = value;
      this.clearCircuit = value == null ? Boolean.TRUE : null;
      return this;
    }

    public Builder backoffJitter(Jitter value) {
      this.backoffJitter = value;
      return this;
    }

    /**
     * Flow limits to merge into the queue's: each non-null field replaces the current one (see
     * {@link #clearLimits} to remove them).
     */
    public Builder limits(FlowLimits value) {
      this.limits = value;
      return this;
    }

    /** Removes every flow limit (before {@link #limits} merges, when both are given). */
    public Builder clearLimits() {
      this.clearLimits = true;
      return this;
    }

    public Builder maxAttempts(int value) {
      this.maxAttempts = value;
      return this;
    }

    public Builder leaseTimeout(Duration value) {
      this.leaseTimeout = value;
      return this;
    }

    public Builder backoff(Backoff value) {
      this.backoff = value;
      return this;
    }

    public Builder expireAfter(Duration value) {
      this.expireAfter = value;
      return this;
    }

    public Builder clearExpireAfter() {
      this.clearExpireAfter = true;
      return this;
    }

    public Builder deadLetter(DeadLetter value) {
      this.deadLetter = value;
      return this;
    }

    public Builder streamPolicy(StreamPolicy value) {
      this.streamPolicy = value;
      return this;
    }

    /** The crash-loop breaker's distinct crashed workers (0 turns it off). */
    public Builder maxCrashes(int value) {
      this.maxCrashes = value;
      return this;
    }

    /** How long completed messages' stories are kept (0s: not at all). */
    public Builder completedRetention(Duration value) {
      this.completedRetention = value;
      return this;
    }

    /** Makes the queue follow the engine's default retention of completed messages again. */
    public Builder clearCompletedRetention() {
      this.clearCompletedRetention = true;
      return this;
    }

    /** The priority of messages enqueued without one (0–9). */
    public Builder defaultPriority(int value) {
      this.defaultPriority = value;
      return this;
    }

    /** The head start one step of priority is worth, for messages enqueued from now on. */
    public Builder priorityAging(Duration value) {
      this.priorityAging = value;
      return this;
    }

    /** Removes the dead-letter queue (dead letters are then kept in place). */
    public Builder clearDeadLetterQueue() {
      this.clearDeadLetterQueue = true;
      return this;
    }

    public QueueUpdate build() {
      return new QueueUpdate(
          maxAttempts,
          leaseTimeout,
          backoff,
          expireAfter,
          clearExpireAfter,
          deadLetter,
          streamPolicy,
          clearDeadLetterQueue,
          maxCrashes,
          completedRetention,
          clearCompletedRetention,
          defaultPriority,
          priorityAging,
          limits,
          clearLimits,
          backoffJitter,
          circuit,
          clearCircuit);
    }
  }
}
