package io.redrive.test;

import io.redrive.failure.FailureReason;
import io.redrive.message.MessageState;
import java.time.Instant;

/**
 * One handler run of a drain (or a message poisoned when it was leased) and how it ended.
 *
 * @param id the message id
 * @param type the message type
 * @param attempt the attempt this run was (1 for the first)
 * @param state COMPLETED, DEAD, or READY/SCHEDULED when it failed and will be retried
 * @param reason why it failed or died, or null when it completed
 * @param error the handler's error message, or null
 * @param retryAt when a failed message becomes due again, or null
 */
public record DrainedMessage(
    String id,
    String type,
    int attempt,
    MessageState state,
    FailureReason reason,
    String error,
    Instant retryAt) {

  /** Whether the run completed the message. */
  public boolean completed() {
    return state == MessageState.COMPLETED;
  }

  /** Whether the message died (dead-lettered or discarded). */
  public boolean died() {
    return state == MessageState.DEAD;
  }

  /** Whether the run failed and the message will be retried. */
  public boolean failed() {
    return state == MessageState.READY || state == MessageState.SCHEDULED;
  }
}
