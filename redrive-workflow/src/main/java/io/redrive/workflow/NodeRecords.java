package io.redrive.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.store.workflow.NodeRow;
import io.redrive.workflow.runtime.RuntimeSettings;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place a node's published record is built from its registry and settings, written as the
 * JSON of its row ({@code registrations}) and read back. Unknown keys are ignored and missing ones
 * read as empty, so nodes of different builds read each other's rows.
 */
final class NodeRecords {
  private static final ObjectMapper JSON = new ObjectMapper();

  private NodeRecords() {}

  /** {@code wf-<pid>@<host>}: the id of a node that names none. */
  static String defaultNodeId() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "localhost";
    }
    return "wf-" + ProcessHandle.current().pid() + "@" + host;
  }

  /** What a runtime with {@code settings} runs of {@code registry}, started {@code now}. */
  static WorkflowNode of(WorkflowRegistry registry, RuntimeSettings settings, Instant now) {
    Instant startedAt = now.truncatedTo(ChronoUnit.MILLIS); // as the store keeps it
    Map<String, List<String>> orchestrations = new LinkedHashMap<>();
    if (settings.orchestrations()) {
      for (String name : registry.orchestrationNames()) {
        orchestrations.put(name, registry.versions(name));
      }
    }
    Map<String, String> activities = new LinkedHashMap<>();
    if (settings.activities()) {
      for (String name : registry.activityNames()) {
        activities.put(name, registry.activity(name).orElseThrow().queue());
      }
    }
    return new WorkflowNode(
        settings.nodeId(),
        settings.buildId(),
        orchestrations,
        activities,
        settings.orchestrations() ? settings.orchestrationConcurrency() : 0,
        settings.activities() ? settings.activityConcurrency() : 0,
        startedAt,
        startedAt);
  }

  /** The row's {@code registrations}: everything but the id, build and times, which are columns. */
  static String registrations(WorkflowNode node) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode o = root.putObject("orchestrations");
    node.orchestrations().forEach((name, versions) -> versions.forEach(o.putArray(name)::add));
    ObjectNode a = root.putObject("activities");
    node.activities().forEach(a::put);
    root.put("orchestrationConcurrency", node.orchestrationConcurrency());
    root.put("activityConcurrency", node.activityConcurrency());
    return root.toString();
  }

  /** The node of a stored row. */
  static WorkflowNode fromRow(NodeRow row) {
    JsonNode root;
    try {
      root = JSON.readTree(row.registrations());
    } catch (java.io.IOException e) {
      root = JSON.createObjectNode(); // a row no build of ours wrote: shown with what it says
    }
    Map<String, List<String>> orchestrations = new LinkedHashMap<>();
    root.path("orchestrations")
        .fields()
        .forEachRemaining(
            e -> {
              List<String> versions = new ArrayList<>();
              e.getValue().forEach(v -> versions.add(v.asText()));
              orchestrations.put(e.getKey(), versions);
            });
    Map<String, String> activities = new LinkedHashMap<>();
    root.path("activities")
        .fields()
        .forEachRemaining(e -> activities.put(e.getKey(), e.getValue().asText()));
    return new WorkflowNode(
        row.nodeId(),
        row.buildId(),
        orchestrations,
        activities,
        root.path("orchestrationConcurrency").asInt(0),
        root.path("activityConcurrency").asInt(0),
        row.startedAt(),
        row.seenAt());
  }
}
