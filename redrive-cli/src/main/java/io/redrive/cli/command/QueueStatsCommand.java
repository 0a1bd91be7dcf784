package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = {
      "Shows message counts by state, attempts and dead reason.",
      "Without QUEUE, one line per queue."
    })
final class QueueStatsCommand extends ApiCommand {
  @Parameters(index = "0", arity = "0..1", paramLabel = "QUEUE")
  String queue;

  @Override
  int run(ApiClient client, Output output) {
    if (queue != null) {
      JsonNode stats = client.get("/v1/queues/" + ApiClient.segment(queue) + "/stats");
      if (output.json()) {
        output.print(stats);
      } else {
        output.table(QueueView.stats(stats));
      }
      return 0;
    }
    ArrayNode all = ApiClient.json().createArrayNode();
    Table table = QueueView.statsHeader();
    for (JsonNode q : client.get("/v1/queues").path("queues")) {
      String name = Fields.text(q, "name");
      JsonNode stats = client.get("/v1/queues/" + ApiClient.segment(name) + "/stats");
      all.add(stats);
      QueueView.statsRow(table, name, stats);
    }
    if (output.json()) {
      output.print(ApiClient.object().set("stats", all));
    } else if (table.size() == 0) {
      output.line("no queues");
    } else {
      output.table(table);
    }
    return 0;
  }
}
