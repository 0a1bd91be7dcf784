package io.redrive.workflow;

/**
 * What {@link WorkflowClient#delete} deleted.
 *
 * @param instances instances of the tree (the root included)
 * @param messages their activity messages, in any state
 */
public record DeleteResult(int instances, int messages) {}
