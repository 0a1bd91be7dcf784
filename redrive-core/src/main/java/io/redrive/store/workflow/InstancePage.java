package io.redrive.store.workflow;

import java.util.List;

/**
 * One page of {@link WorkflowStore#listInstances}.
 *
 * @param instances the instances, newest first
 * @param nextCursor the cursor of the next page, or null when this is the last
 */
public record InstancePage(List<InstanceRow> instances, String nextCursor) {
  public InstancePage {
    instances = List.copyOf(instances);
  }
}
