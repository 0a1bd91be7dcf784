package io.redrive.server;

import io.redrive.workflow.WorkflowNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lines the server logs once its workflow runtime started: the settings in force, then what it
 * registered, as the node publishes itself among the live nodes (so the log and {@code GET
 * /v1/workflow-nodes} say the same).
 */
final class WorkflowStartLog {
  private WorkflowStartLog() {}

  static List<String> lines(WorkflowNode node) {
    List<String> orchestrations = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : node.orchestrations().entrySet()) {
      orchestrations.add(e.getKey() + " " + e.getValue());
    }
    List<String> activities = new ArrayList<>();
    node.activities().forEach((type, queue) -> activities.add(type + " (queue " + queue + ")"));
    return List.of(
        "workflow runtime started: node "
            + node.nodeId()
            + ", build "
            + (node.buildId() == null ? "none" : node.buildId())
            + ", orchestrationConcurrency "
            + node.orchestrationConcurrency()
            + ", activityConcurrency "
            + node.activityConcurrency(),
        "workflow orchestrations registered: "
            + (orchestrations.isEmpty() ? "none" : String.join(", ", orchestrations)),
        "workflow activities registered: "
            + (activities.isEmpty()
                ? "none (activity messages are left to other workers)"
                : String.join(", ", activities)));
  }
}
