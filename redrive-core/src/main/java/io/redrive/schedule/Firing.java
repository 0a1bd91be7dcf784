package io.redrive.schedule;

import java.time.Instant;

/**
 * What one due time of a schedule produced.
 *
 * @param schedule the schedule's name
 * @param dueAt the due time (for a trigger, the time of the trigger)
 * @param producedId the message id, or the workflow instance id
 * @param created false when the due time had produced it already (a duplicate, nothing new)
 * @param queue the queue a message target enqueued into; null for a workflow target
 */
public record Firing(
    String schedule, Instant dueAt, String producedId, boolean created, String queue) {

  /** A firing that enqueued into no queue (it started a workflow instance). */
  public Firing(String schedule, Instant dueAt, String producedId, boolean created) {
    this(schedule, dueAt, producedId, created, null);
  }
}
