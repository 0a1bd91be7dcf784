package io.redrive.lease;

import io.redrive.failure.FailureReason;
import java.time.Duration;

/**
 * Settles a lease as failed.
 *
 * @param token the lease token
 * @param reason why it failed
 * @param message the error message (may be null)
 * @param retryable null for the reason's default; false dead-letters now (permanent failure)
 * @param retryAfter overrides the backoff for this attempt (e.g. HTTP 429 Retry-After), or null
 * @param progress steps completed in this attempt, OR-merged into the message's progress
 * @param stackTrace a stack trace or detail text (bounded when stored), or null
 * @param dependency what the attempt failed against ({@code smtp}, a host), or null; on a queue
 *     with a circuit breaker it counts toward that dependency's circuit
 */
public record FailRequest(
    String token,
    FailureReason reason,
    String message,
    Boolean retryable,
    Duration retryAfter,
    long progress,
    String stackTrace,
    String dependency) {

  /** A failure that names no dependency. */
  public FailRequest(
      String token,
      FailureReason reason,
      String message,
      Boolean retryable,
      Duration retryAfter,
      long progress,
      String stackTrace) {
    this(token, reason, message, retryable, retryAfter, progress, stackTrace, null);
  }

  public static FailRequest of(String token, FailureReason reason, String message) {
    return new FailRequest(token, reason, message, null, null, 0L, null, null);
  }

  public FailRequest withRetryable(boolean value) {
    return new FailRequest(
        token, reason, message, value, retryAfter, progress, stackTrace, dependency);
  }

  public FailRequest withRetryAfter(Duration value) {
    return new FailRequest(
        token, reason, message, retryable, value, progress, stackTrace, dependency);
  }

  public FailRequest withProgress(long value) {
    return new FailRequest(
        token, reason, message, retryable, retryAfter, value, stackTrace, dependency);
  }

  public FailRequest withStackTrace(String value) {
    return new FailRequest(
        token, reason, message, retryable, retryAfter, progress, value, dependency);
  }

  /** This failure naming {@code value} as the dependency it failed against (null: none). */
  public FailRequest withDependency(String value) {
    return new FailRequest(
        token, reason, message, retryable, retryAfter, progress, stackTrace, value);
  }
}
