package io.redrive.store;

import io.redrive.queue.QueuePolicy;
import java.time.Instant;

/**
 * Input of {@link Store#createQueue}.
 *
 * @param workflowOwned a queue for the workflow runtime's activities (never set over the API)
 */
public record CreateQueueParams(
    String name, QueuePolicy policy, boolean workflowOwned, Instant now) {

  /** A plain queue. */
  public CreateQueueParams(String name, QueuePolicy policy, Instant now) {
    this(name, policy, false, now);
  }
}
