package io.redrive.deadletter;

import io.redrive.failure.FailureReason;
import java.time.Instant;
import java.util.Set;

/**
 * Moves dead messages out of a dead-letter queue, resetting their attempts.
 *
 * @param from the dead-letter queue
 * @param to the target queue, or null for each message's source queue
 * @param deadReasons only messages that died for one of these reasons, or null for any
 * @param types only these types, or null for any
 * @param deadSince only messages that died at or after this time, or null
 * @param deadBefore only messages that died before this time, or null
 * @param fingerprint only messages of this dead-letter group ({@link Fingerprint#key()}), or null
 * @param ids only these messages (their ids in the dead-letter queue), or null for any
 * @param limit most messages to move (1–100 000)
 * @param dryRun when true, report what would move and change nothing
 * @param actor who asked (recorded in history), or null
 * @param position where messages of a stream go among the stream's waiting messages (null: {@link
 *     RedrivePosition#ORIGINAL})
 */
public record RedriveRequest(
    String from,
    String to,
    Set<FailureReason> deadReasons,
    Set<String> types,
    Instant deadSince,
    Instant deadBefore,
    String fingerprint,
    Set<String> ids,
    int limit,
    boolean dryRun,
    String actor,
    RedrivePosition position) {

  /** Largest redrive in one call. */
  public static final int MAX_LIMIT = 100_000;

  public RedriveRequest {
    ids = ids == null ? null : Set.copyOf(ids);
    position = position == null ? RedrivePosition.ORIGINAL : position;
  }

  /** A request with the default position ({@link RedrivePosition#ORIGINAL}). */
  public RedriveRequest(
      String from,
      String to,
      Set<FailureReason> deadReasons,
      Set<String> types,
      Instant deadSince,
      Instant deadBefore,
      String fingerprint,
      Set<String> ids,
      int limit,
      boolean dryRun,
      String actor) {
    this(
        from,
        to,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        limit,
        dryRun,
        actor,
        RedrivePosition.ORIGINAL);
  }

  /** Where messages of a stream go among its waiting messages. */
  public RedriveRequest withPosition(RedrivePosition value) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        limit,
        dryRun,
        actor,
        value);
  }

  public static RedriveRequest all(String from) {
    return new RedriveRequest(from, null, null, null, null, null, null, null, 1000, false, null);
  }

  public RedriveRequest withTo(String value) {
    return new RedriveRequest(
        from,
        value,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        limit,
        dryRun,
        actor,
        position);
  }

  public RedriveRequest withDeadReasons(Set<FailureReason> value) {
    return new RedriveRequest(
        from,
        to,
        value,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        limit,
        dryRun,
        actor,
        position);
  }

  public RedriveRequest withTypes(Set<String> value) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        value,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        limit,
        dryRun,
        actor,
        position);
  }

  public RedriveRequest withDeadBetween(Instant since, Instant before) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        types,
        since,
        before,
        fingerprint,
        ids,
        limit,
        dryRun,
        actor,
        position);
  }

  public RedriveRequest withFingerprint(String value) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        value,
        ids,
        limit,
        dryRun,
        actor,
        position);
  }

  /** Only the messages with these ids (in the dead-letter queue). */
  public RedriveRequest withIds(Set<String> value) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        value,
        limit,
        dryRun,
        actor,
        position);
  }

  public RedriveRequest withLimit(int value) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        value,
        dryRun,
        actor,
        position);
  }

  public RedriveRequest withDryRun(boolean value) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        limit,
        value,
        actor,
        position);
  }

  /** Who asked, recorded in each moved message's history. */
  public RedriveRequest withActor(String value) {
    return new RedriveRequest(
        from,
        to,
        deadReasons,
        types,
        deadSince,
        deadBefore,
        fingerprint,
        ids,
        limit,
        dryRun,
        value,
        position);
  }
}
