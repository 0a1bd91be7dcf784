package io.redrive.workflow;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A live workflow node as it publishes itself (docs/workflows.md, "Nodes"): a running {@link
 * WorkflowRuntime} writes this at its start and on every heartbeat, and counts as gone a few
 * heartbeats after its last.
 *
 * @param nodeId the node's id
 * @param buildId the code build it runs, or null
 * @param orchestrations the orchestrations whose turns it runs, name to versions (oldest first);
 *     empty when it runs no turns
 * @param activities the activity types it runs, type to queue; empty when it runs no activities
 * @param orchestrationConcurrency turns it runs at once (0 when it runs no turns)
 * @param activityConcurrency activities it runs at once per queue (0 when it runs no activities)
 * @param startedAt when its runtime started
 * @param lastSeenAt when it last published
 */
public record WorkflowNode(
    String nodeId,
    String buildId,
    Map<String, List<String>> orchestrations,
    Map<String, String> activities,
    int orchestrationConcurrency,
    int activityConcurrency,
    Instant startedAt,
    Instant lastSeenAt) {
  public WorkflowNode {
    Map<String, List<String>> o = new LinkedHashMap<>();
    orchestrations.forEach((name, versions) -> o.put(name, List.copyOf(versions)));
    orchestrations = Collections.unmodifiableMap(o);
    activities = Collections.unmodifiableMap(new LinkedHashMap<>(activities));
  }

  /** True when it runs turns of {@code name}, of {@code version} when that is not null. */
  public boolean runs(String name, String version) {
    List<String> versions = orchestrations.get(name);
    return versions != null && (version == null || versions.contains(version));
  }
}
