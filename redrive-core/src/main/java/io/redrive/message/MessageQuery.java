package io.redrive.message;

import io.redrive.failure.FailureReason;
import java.util.Set;

/**
 * Filters and a page for listing messages of one queue. Null filters match everything. Results are
 * in serve order (enqueue sequence); {@code after} is the cursor returned by the previous page.
 *
 * @param queue the queue to list
 * @param states states to include (SCHEDULED selects not-yet-visible ready messages)
 * @param stream only this stream
 * @param type only this type
 * @param dedupeKey only the message with this dedupe key (at most one per queue)
 * @param lastFailureReason only messages whose latest failure had this reason
 * @param deadReason only dead messages that died for this reason
 * @param fingerprint only dead messages of this dead-letter group (a {@link
 *     io.redrive.deadletter.Fingerprint#key() fingerprint key})
 * @param minAttempts only messages with at least this many attempts (0: any), e.g. the ready
 *     messages one failure away from dead
 * @param payloadField only messages whose JSON payload has this value at this field (a scan of the
 *     queue, see {@link PayloadField})
 * @param after the cursor of the previous page, or null for the first
 * @param limit page size, 1–1000
 */
public record MessageQuery(
    String queue,
    Set<MessageState> states,
    String stream,
    String type,
    String dedupeKey,
    FailureReason lastFailureReason,
    FailureReason deadReason,
    String fingerprint,
    int minAttempts,
    PayloadField payloadField,
    String after,
    int limit) {

  /** Largest page. */
  public static final int MAX_LIMIT = 1000;

  public static MessageQuery all(String queue) {
    return new MessageQuery(queue, null, null, null, null, null, null, null, 0, null, null, 100);
  }

  public MessageQuery withStates(Set<MessageState> value) {
    return new MessageQuery(
        queue,
        value,
        stream,
        type,
        dedupeKey,
        lastFailureReason,
        deadReason,
        fingerprint,
        minAttempts,
        payloadField,
        after,
        limit);
  }

  public MessageQuery withStream(String value) {
    return new MessageQuery(
        queue,
        states,
        value,
        type,
        dedupeKey,
        lastFailureReason,
        deadReason,
        fingerprint,
        minAttempts,
        payloadField,
        after,
        limit);
  }

  public MessageQuery withType(String value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        value,
        dedupeKey,
        lastFailureReason,
        deadReason,
        fingerprint,
        minAttempts,
        payloadField,
        after,
        limit);
  }

  public MessageQuery withDedupeKey(String value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        value,
        lastFailureReason,
        deadReason,
        fingerprint,
        minAttempts,
        payloadField,
        after,
        limit);
  }

  public MessageQuery withLastFailureReason(FailureReason value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        dedupeKey,
        value,
        deadReason,
        fingerprint,
        minAttempts,
        payloadField,
        after,
        limit);
  }

  public MessageQuery withDeadReason(FailureReason value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        dedupeKey,
        lastFailureReason,
        value,
        fingerprint,
        minAttempts,
        payloadField,
        after,
        limit);
  }

  public MessageQuery withFingerprint(String value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        dedupeKey,
        lastFailureReason,
        deadReason,
        value,
        minAttempts,
        payloadField,
        after,
        limit);
  }

  public MessageQuery withMinAttempts(int value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        dedupeKey,
        lastFailureReason,
        deadReason,
        fingerprint,
        value,
        payloadField,
        after,
        limit);
  }

  /**
   * Only messages whose JSON payload has {@code value} at {@code path} (see {@link PayloadField}).
   */
  public MessageQuery withPayloadField(String path, String value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        dedupeKey,
        lastFailureReason,
        deadReason,
        fingerprint,
        minAttempts,
        new PayloadField(path, value),
        after,
        limit);
  }

  public MessageQuery withAfter(String value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        dedupeKey,
        lastFailureReason,
        deadReason,
        fingerprint,
        minAttempts,
        payloadField,
        value,
        limit);
  }

  public MessageQuery withLimit(int value) {
    return new MessageQuery(
        queue,
        states,
        stream,
        type,
        dedupeKey,
        lastFailureReason,
        deadReason,
        fingerprint,
        minAttempts,
        payloadField,
        after,
        value);
  }
}
