package io.redrive.deadletter;

import io.redrive.failure.FailureReason;
import io.redrive.message.MessageState;
import java.util.Set;

/**
 * Selects messages of one queue to drop. Null filters match everything; leased messages are never
 * dropped by a filter (drop them by id).
 *
 * @param queue the queue
 * @param states states to drop (READY, SCHEDULED, DEAD), or null for READY, SCHEDULED and DEAD
 * @param type only this type, or null
 * @param deadReason only dead messages that died for this reason, or null
 * @param fingerprint only dead messages of this dead-letter group ({@link Fingerprint#key()}), or
 *     null
 * @param limit most messages to drop (1–100 000)
 */
public record DropFilter(
    String queue,
    Set<MessageState> states,
    String type,
    FailureReason deadReason,
    String fingerprint,
    int limit) {

  /** A filter without a fingerprint. */
  public DropFilter(
      String queue, Set<MessageState> states, String type, FailureReason deadReason, int limit) {
    this(queue, states, type, deadReason, null, limit);
  }

  public DropFilter withFingerprint(String value) {
    return new DropFilter(queue, states, type, deadReason, value, limit);
  }
}
