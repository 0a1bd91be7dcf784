package io.redrive.workflow;

import java.time.Instant;

/**
 * One line of an instance's attempt-level timeline ({@link WorkflowClient#timeline}): a history
 * event, a turn try that ended without a commit, or one delivery of an activity message. Together
 * they tell why an instance took as long as it did, which the history alone (commits only) cannot.
 *
 * @param at when it happened (an event: its turn's time; a try: when it ended; a delivery: when it
 *     was settled, or leased when it never was)
 * @param kind what the line is
 * @param executionId the execution it belongs to
 * @param eventId the history event's id, or null for a try or delivery
 * @param event the history event's kind (e.g. ACTIVITY_COMPLETED), or null
 * @param name the event's or activity's name, or null
 * @param seq the command number it answers (activities, timers, children), or null
 * @param attempt the try or delivery it was, or null for an event
 * @param node the node (turn) or worker (delivery) that ran it, or null
 * @param build the code build the node ran (turn tries of nodes that name their build), or null
 * @param outcome how a try or delivery ended (LEASE_EXPIRED, NONDETERMINISM, UNREGISTERED,
 *     TURN_TIMEOUT, COMPLETED, FAILED, …), or null for an event
 * @param reason a machine reason for a failed try or delivery, or null
 * @param message a human message, or null
 * @param messageId the activity message of a delivery while that message still exists (its activity
 *     has not ended), or null; ended activities' messages are deleted or kept dead
 */
public record TimelineEntry(
    Instant at,
    Kind kind,
    int executionId,
    Integer eventId,
    String event,
    String name,
    Long seq,
    Integer attempt,
    String node,
    String build,
    String outcome,
    String reason,
    String message,
    String messageId) {

  /** A line without a message id (every line but a running activity's deliveries). */
  public TimelineEntry(
      Instant at,
      Kind kind,
      int executionId,
      Integer eventId,
      String event,
      String name,
      Long seq,
      Integer attempt,
      String node,
      String build,
      String outcome,
      String reason,
      String message) {
    this(
        at,
        kind,
        executionId,
        eventId,
        event,
        name,
        seq,
        attempt,
        node,
        build,
        outcome,
        reason,
        message,
        null);
  }

  /** What a timeline line is. */
  public enum Kind {
    /** A committed history event. */
    EVENT,
    /** A turn try that ended without a commit. */
    TURN_ATTEMPT,
    /** One delivery of an activity message to a worker. */
    ACTIVITY_ATTEMPT
  }
}
