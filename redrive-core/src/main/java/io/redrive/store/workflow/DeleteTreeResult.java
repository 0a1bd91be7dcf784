package io.redrive.store.workflow;

/**
 * What {@link WorkflowStore#deleteInstanceTree} deleted.
 *
 * @param instances instances of the tree (the root included)
 * @param messages their activity messages, in any state
 */
public record DeleteTreeResult(int instances, int messages) {}
