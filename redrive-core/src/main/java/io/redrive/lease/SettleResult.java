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
 */
public record SettleResult(
    String messageId,
    MessageState state,
    Instant visibleAt,
    FailureReason deadReason,
    String deadLetterQueue,
    boolean discarded) {}
