package io.redrive.lease;

import io.redrive.failure.FailureReason;
import io.redrive.message.MessageState;
import java.time.Instant;

/**
 * What a settle did to the message.
 *
 * @param messageId the message
 * @param state READY/SCHEDULED when it will be delivered again, DEAD when it died, COMPLETED
 * @param visibleAt when it is next visible (READY/SCHEDULED), else null
 * @param deadReason why it died (DEAD), else null
 * @param deadLetterQueue the dead-letter queue it moved to, or null
 * @param discarded true when the dead message was deleted (queue set to discard)
 * @param queue the queue the message was in when settled, or null when the store does not say
 * @param leasedAt when the settled lease was taken (for lease-to-settle timing), or null when the
 *     message was not leased (a deadline sweep of a ready message) or the store does not say
 * @param repeated true when the message had already been completed by this very lease (a complete
 *     repeated within the completion window, e.g. after its first answer was lost): nothing changed
 */
public record SettleResult(
    String messageId,
    MessageState state,
    Instant visibleAt,
    FailureReason deadReason,
    String deadLetterQueue,
    boolean discarded,
    String queue,
    Instant leasedAt,
    boolean repeated) {

  /** A result of a settle that changed the message. */
  public SettleResult(
      String messageId,
      MessageState state,
      Instant visibleAt,
      FailureReason deadReason,
      String deadLetterQueue,
      boolean discarded,
      String queue,
      Instant leasedAt) {
    this(
        messageId,
        state,
        visibleAt,
        deadReason,
        deadLetterQueue,
        discarded,
        queue,
        leasedAt,
        false);
  }

  /** A result that does not name the queue or the lease time. */
  public SettleResult(
      String messageId,
      MessageState state,
      Instant visibleAt,
      FailureReason deadReason,
      String deadLetterQueue,
      boolean discarded) {
    this(messageId, state, visibleAt, deadReason, deadLetterQueue, discarded, null, null);
  }
}
