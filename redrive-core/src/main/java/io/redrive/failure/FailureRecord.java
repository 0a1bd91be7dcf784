package io.redrive.failure;

import java.time.Instant;

/**
 * Why one attempt failed, stored as data (never as a serialized exception).
 *
 * @param reason the failure reason (its category follows from it)
 * @param message the error message as reported
 * @param retryable whether this failure allowed a retry
 * @param attempt the attempt it ended (for POISON: {@code maxAttempts + 1})
 * @param maxAttempts the queue's limit at that time
 * @param worker the worker that reported it, or null
 * @param at when it happened
 * @param stackTrace a bounded stack trace, or null
 * @param poisonedMessage for POISON: the full message with its attempt history (JSON), else null
 */
public record FailureRecord(
    FailureReason reason,
    String message,
    boolean retryable,
    int attempt,
    int maxAttempts,
    String worker,
    Instant at,
    String stackTrace,
    String poisonedMessage) {

  public FailureCategory category() {
    return reason.category();
  }

  /**
   * One line for logs and tables, e.g. {@code handler_exception: boom (attempt 2 of 5)}. POISON and
   * EXPIRED records carry their display text as the message already.
   */
  public String displayText() {
    if (reason == FailureReason.POISON || reason == FailureReason.EXPIRED) {
      return message;
    }
    return reason.name().toLowerCase(java.util.Locale.ROOT)
        + ": "
        + (message == null ? "" : message)
        + " (attempt "
        + attempt
        + " of "
        + maxAttempts
        + ")";
  }
}
