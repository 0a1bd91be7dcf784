package io.redrive.store.workflow;

import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;

/**
 * An event waiting in a workflow instance's inbox for its next turn (docs/workflows.md). A value
 * class with record-style accessors; not a record because a store may hand the activity result over
 * unread: a store reads its own activity-result JSON on the thread that first asks, so a lease (one
 * poller thread per node) does not pay for parsing what the turn threads read in parallel.
 */
public final class InboxRow {
  private final long seq;
  private final Integer executionId;
  private final String kind;
  private final Long refSeq;
  private final String name;
  private final String data;
  private final Instant visibleAt;
  private final Instant enqueuedAt;
  private final Function<String, ActivityResult> reader;
  // Benign race: every thread that reads it computes the same value from the same data.
  private ActivityResult activityResult;

  /**
   * A row with its activity result already read.
   *
   * @param seq the row's sequence number; a commit deletes exactly the rows its turn took
   * @param executionId the execution it is for, or null for the current one
   * @param kind START, CONTINUE, ACTIVITY_RESULT, TIMER_FIRED, EVENT_RAISED, CHILD_RESULT or
   *     TERMINATE
   * @param refSeq the command it answers (an activity's or timer's sequence number), or null
   * @param name the event's or orchestration's name, or null
   * @param data its JSON, or null
   * @param visibleAt when it may be taken (a timer's fire time)
   * @param enqueuedAt when it was written
   * @param activityResult for an ACTIVITY_RESULT row, what its data says, read by the store that
   *     wrote it (null for other kinds, and for data the store cannot read)
   */
  public InboxRow(
      long seq,
      Integer executionId,
      String kind,
      Long refSeq,
      String name,
      String data,
      Instant visibleAt,
      Instant enqueuedAt,
      ActivityResult activityResult) {
    this(seq, executionId, kind, refSeq, name, data, visibleAt, enqueuedAt, null, activityResult);
  }

  /** A row with no activity result (any kind but ACTIVITY_RESULT, or one built by hand). */
  public InboxRow(
      long seq,
      Integer executionId,
      String kind,
      Long refSeq,
      String name,
      String data,
      Instant visibleAt,
      Instant enqueuedAt) {
    this(seq, executionId, kind, refSeq, name, data, visibleAt, enqueuedAt, null, null);
  }

  private InboxRow(
      long seq,
      Integer executionId,
      String kind,
      Long refSeq,
      String name,
      String data,
      Instant visibleAt,
      Instant enqueuedAt,
      Function<String, ActivityResult> reader,
      ActivityResult activityResult) {
    this.seq = seq;
    this.executionId = executionId;
    this.kind = kind;
    this.refSeq = refSeq;
    this.name = name;
    this.data = data;
    this.visibleAt = visibleAt;
    this.enqueuedAt = enqueuedAt;
    this.reader = reader;
    this.activityResult = activityResult;
  }

  /**
   * A row as a store read it, whose activity result {@code reader} (the store's own reader of the
   * JSON it wrote) reads from {@code data} when first asked; {@code reader} must return null for
   * data it cannot read rather than throw.
   */
  public static InboxRow stored(
      long seq,
      Integer executionId,
      String kind,
      Long refSeq,
      String name,
      String data,
      Instant visibleAt,
      Instant enqueuedAt,
      Function<String, ActivityResult> reader) {
    return new InboxRow(
        seq, executionId, kind, refSeq, name, data, visibleAt, enqueuedAt, reader, null);
  }

  public long seq() {
    return seq;
  }

  public Integer executionId() {
    return executionId;
  }

  public String kind() {
    return kind;
  }

  public Long refSeq() {
    return refSeq;
  }

  public String name() {
    return name;
  }

  public String data() {
    return data;
  }

  public Instant visibleAt() {
    return visibleAt;
  }

  public Instant enqueuedAt() {
    return enqueuedAt;
  }

  /** For an ACTIVITY_RESULT row, what its data says (null for other kinds and unreadable data). */
  public ActivityResult activityResult() {
    ActivityResult r = activityResult;
    if (r == null && reader != null && data != null) {
      r = reader.apply(data);
      activityResult = r;
    }
    return r;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InboxRow r
        && seq == r.seq
        && Objects.equals(executionId, r.executionId)
        && Objects.equals(kind, r.kind)
        && Objects.equals(refSeq, r.refSeq)
        && Objects.equals(name, r.name)
        && Objects.equals(data, r.data)
        && Objects.equals(visibleAt, r.visibleAt)
        && Objects.equals(enqueuedAt, r.enqueuedAt)
        && Objects.equals(activityResult(), r.activityResult());
  }

  @Override
  public int hashCode() {
    // The result is read from data, so data stands for it (and hashing does not parse).
    return Objects.hash(seq, executionId, kind, refSeq, name, data, visibleAt, enqueuedAt);
  }

  @Override
  public String toString() {
    return "InboxRow[seq="
        + seq
        + ", executionId="
        + executionId
        + ", kind="
        + kind
        + ", refSeq="
        + refSeq
        + ", name="
        + name
        + ", data="
        + data
        + ", visibleAt="
        + visibleAt
        + ", enqueuedAt="
        + enqueuedAt
        + "]";
  }
}
