package io.redrive.deadletter;

import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import java.time.Instant;

/**
 * A dead-letter group: the dead messages of one queue with one {@link Fingerprint} key, i.e. dead
 * of the same cause.
 *
 * @param queue the queue the messages are dead in (a dead-letter queue for moved copies)
 * @param fingerprint the group's {@link Fingerprint#key() key}; a filter value for listing,
 *     dropping, retrying and redriving the group's messages
 * @param deadReason the dead reason its messages share
 * @param type the type its messages share
 * @param count how many dead messages it has
 * @param firstDeadAt when its earliest message died
 * @param lastDeadAt when its latest message died
 * @param sampleId the id of its latest dead message
 * @param sampleCause the cause of that message's death ({@link Fingerprint#causeOf}), or null when
 *     its history has none
 */
public record DeadGroup(
    String queue,
    String fingerprint,
    FailureReason deadReason,
    String type,
    long count,
    Instant firstDeadAt,
    Instant lastDeadAt,
    String sampleId,
    FailureRecord sampleCause) {

  /**
   * The pieces of the fingerprint (exception class, pattern, frames), computed again from the
   * sample, to show what grouped these messages. Its key equals {@link #fingerprint} unless the
   * fingerprint rules changed since the sample died.
   */
  public Fingerprint pieces() {
    return Fingerprint.of(deadReason, type, sampleCause);
  }
}
