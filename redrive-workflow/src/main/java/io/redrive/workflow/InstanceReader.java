package io.redrive.workflow;

import java.util.List;

/**
 * Reads instances and their histories, nothing more: what a live replay check ({@link
 * WorkflowReplayer#checkLive}) needs. A {@link WorkflowClient} is one; the CLI reads a remote
 * server's HTTP API through another.
 */
public interface InstanceReader {
  /** Instances matching the query, newest first. */
  InstancePage list(InstanceQuery query);

  /** The history of one execution, or with {@code executionId} null of all, oldest first. */
  List<WorkflowEvent> history(String instanceId, Integer executionId);
}
