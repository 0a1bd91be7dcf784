/**
 * The seam between the queue statements of {@code io.redrive.jdbc} and the owner of workflow-owned
 * queues ({@code io.redrive.jdbc.workflow}): {@link io.redrive.jdbc.owned.QueueEndings}, the one
 * hook the queue statements call where a queue's kind changes how its messages end, and {@link
 * io.redrive.jdbc.owned.OwnedQueues}, what the owner may do to those messages. Not exported: both
 * sides are in this module.
 */
package io.redrive.jdbc.owned;
