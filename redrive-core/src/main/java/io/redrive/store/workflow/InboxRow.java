package io.redrive.store.workflow;

import java.time.Instant;

/**
 * An event waiting in a workflow instance's inbox for its next turn (docs/workflows.md).
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
public record InboxRow(
    long seq,
    Integer executionId,
    String kind,
    Long refSeq,
    String name,
    String data,
    Instant visibleAt,
    Instant enqueuedAt,
    ActivityResult activityResult) {

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
    this(seq, executionId, kind, refSeq, name, data, visibleAt, enqueuedAt, null);
  }
}
