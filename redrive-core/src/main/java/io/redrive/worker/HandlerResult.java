package io.redrive.worker;

import io.redrive.failure.FailureReason;
import java.time.Duration;

/**
 * What a handler says happened: complete, fail (retried per the queue's policy), retry after a
 * given delay, or dead now. Explicit outcomes rather than exceptions to catch.
 */
public sealed interface HandlerResult {

  /** The message is done; it leaves the queue. */
  static HandlerResult complete() {
    return Complete.INSTANCE;
  }

  /**
   * The message is done, with a result (JSON) for the workflow instance that scheduled it (a
   * workflow-owned queue's activity); a plain queue keeps no result.
   */
  static HandlerResult complete(String resultJson) {
    return new CompleteWithResult(resultJson);
  }

  /** A failure with its reason; retried unless the reason is not retryable or attempts ran out. */
  static HandlerResult fail(FailureReason reason, String message) {
    return new Fail(reason, message);
  }

  /**
   * A failure against {@code dependency} ({@code smtp}, a host): a DEPENDENCY_FAILURE that, on a
   * queue with a circuit breaker, counts toward that dependency's circuit (and, while the circuit
   * is open, is refunded and held instead of using the attempt).
   */
  static HandlerResult failAgainst(String dependency, String message) {
    return new Fail(FailureReason.DEPENDENCY_FAILURE, message, dependency);
  }

  /** Retry after {@code delay} instead of the backoff (e.g. an HTTP 429 Retry-After). */
  static HandlerResult retryAfter(Duration delay, String message) {
    return new RetryAfter(delay, FailureReason.DEPENDENCY_FAILURE, message);
  }

  /**
   * Slow down (a dependency answered 429): the message goes back without using its attempt and is
   * visible again after {@code delay}, and its limit key (or its whole queue, when it has none) is
   * held for {@code delay}: no message of that key is leased until then, on any node.
   */
  static HandlerResult slowDown(Duration delay) {
    return new SlowDown(delay);
  }

  /** Dead now: dead-lettered (to the DLQ when configured), never deleted, never retried. */
  static HandlerResult deadNow(FailureReason reason, String message) {
    return new Dead(reason, message);
  }

  /** See {@link #complete()}. */
  enum Complete implements HandlerResult {
    INSTANCE
  }

  /** See {@link #complete(String)}. */
  record CompleteWithResult(String resultJson) implements HandlerResult {
    public CompleteWithResult {
      if (resultJson == null) {
        throw new IllegalArgumentException("resultJson: is required (use complete() for none)");
      }
    }
  }

  /** See {@link #fail} and {@link #failAgainst}; {@code dependency} null names none. */
  record Fail(FailureReason reason, String message, String dependency) implements HandlerResult {
    public Fail {
      if (reason == null) {
        throw new IllegalArgumentException("reason: is required");
      }
      io.redrive.failure.Dependencies.require("dependency", dependency);
    }

    /** A failure that names no dependency. */
    public Fail(FailureReason reason, String message) {
      this(reason, message, null);
    }
  }

  /** See {@link #retryAfter}. */
  record RetryAfter(Duration delay, FailureReason reason, String message) implements HandlerResult {
    public RetryAfter {
      if (delay == null || delay.isNegative()) {
        throw new IllegalArgumentException("retryAfter: must be zero or positive, was " + delay);
      }
    }
  }

  /** See {@link #slowDown}. */
  record SlowDown(Duration delay) implements HandlerResult {
    public SlowDown {
      if (delay == null || delay.isNegative() || delay.isZero()) {
        throw new IllegalArgumentException("slowDown: must be positive, was " + delay);
      }
    }
  }

  /** See {@link #deadNow}. */
  record Dead(FailureReason reason, String message) implements HandlerResult {
    public Dead {
      if (reason == null) {
        throw new IllegalArgumentException("reason: is required");
      }
    }
  }
}
