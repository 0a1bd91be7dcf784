package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code redrive workflow nodes}: the live workflow nodes and what each runs. */
@Command(
    name = "nodes",
    mixinStandardHelpOptions = true,
    description = "List the live workflow nodes: build, orchestrations, activities, last seen.")
final class WorkflowNodesCommand extends ApiCommand {
  @Override
  int run(ApiClient client, Output output) {
    JsonNode nodes = client.get("/v1/workflow-nodes").get("nodes");
    if (output.json()) {
      output.print(nodes);
      return 0;
    }
    if (nodes.isEmpty()) {
      output.line("no live workflow nodes");
      return 0;
    }
    Table t =
        Table.of("NODE", "BUILD", "ORCHESTRATIONS", "ACTIVITIES", "STARTED", "LAST SEEN")
            .maxWidth(2, 60)
            .maxWidth(3, 60);
    for (JsonNode n : nodes) {
      List<String> orchestrations = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.get("orchestrations").fields();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        List<String> versions = new ArrayList<>();
        e.getValue().forEach(v -> versions.add(v.asText()));
        orchestrations.add(e.getKey() + " " + String.join(",", versions));
      }
      List<String> activities = new ArrayList<>();
      n.get("activities").fields().forEachRemaining(e -> activities.add(e.getKey()));
      t.row(
          Fields.text(n, "nodeId"),
          Fields.text(n, "buildId", "-"),
          orchestrations.isEmpty() ? "-" : String.join("; ", orchestrations),
          activities.isEmpty() ? "-" : String.join(", ", activities),
          Fields.time(n, "startedAt"),
          Fields.time(n, "lastSeenAt"));
    }
    output.table(t);
    return 0;
  }
}
