package io.redrive.queue;

import java.time.Instant;

/**
 * A queue as stored: its name, policy and whether leasing is paused.
 *
 * @param name the queue name
 * @param policy the failure-handling settings
 * @param paused true while leasing is paused (enqueue still works)
 * @param createdAt when the queue was created
 * @param updatedAt when the queue was last changed
 * @param workflowOwned true for a queue the workflow runtime created for its activities: a complete
 *     carries a result, and every end of a message reports to its workflow instance
 */
public record Queue(
    String name,
    QueuePolicy policy,
    boolean paused,
    Instant createdAt,
    Instant updatedAt,
    boolean workflowOwned) {}
