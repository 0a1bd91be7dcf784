package io.redrive.store.workflow;

import io.redrive.failure.FailureRecord;
import java.time.Duration;

/**
 * How an activity's message ended, as the store hands it to the workflow runtime: what an
 * ACTIVITY_RESULT inbox row holds (docs/workflows.md, "Activity results"). The store alone writes
 * and reads the row's JSON; the runtime gets this record.
 *
 * @param messageId the activity message
 * @param outcome how it ended
 * @param attempts the message's delivery attempts
 * @param result the handler's result as JSON text, or null (no result, or a failure)
 * @param failure the failure that ended it, or null when it completed; fields the row does not
 *     carry (worker, time) are null
 * @param retryAfter the retry-after the handler asked for with its failure, or null
 * @param story the message's attempt story as JSON (an array, oldest first), which the runtime
 *     copies into its history as it is
 */
public record ActivityResult(
    String messageId,
    Outcome outcome,
    int attempts,
    String result,
    FailureRecord failure,
    Duration retryAfter,
    String story) {

  /** How an activity message ends. */
  public enum Outcome {
    /** The handler returned a result. */
    COMPLETED,
    /** The handler failed it (threw, timed out, or failed it now). */
    FAILED,
    /** It was poisoned at lease (attempts ran out, or the crash-loop breaker). */
    POISONED,
    /** Its deadline passed. */
    EXPIRED
  }
}
