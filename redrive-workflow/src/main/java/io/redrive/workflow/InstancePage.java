package io.redrive.workflow;

import java.util.List;

/**
 * One page of {@link InstanceReader#list}.
 *
 * @param instances the instances, newest first
 * @param nextCursor the {@link InstanceQuery#cursor()} of the next page, or null when this is the
 *     last
 */
public record InstancePage(List<InstanceInfo> instances, String nextCursor) {
  public InstancePage {
    instances = List.copyOf(instances);
  }
}
