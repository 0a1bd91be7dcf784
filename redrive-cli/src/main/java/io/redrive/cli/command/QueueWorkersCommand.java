package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code redrive queue workers QUEUE}: the queue's live workers with the types they take, and its
 * unserved types (docs/cli.md; {@code GET /v1/queues/{name}/workers}).
 */
@Command(
    name = "workers",
    mixinStandardHelpOptions = true,
    description = {
      "Shows the queue's live workers and the types their leases name (* for every type),",
      "and its unserved types: ready types no live worker has taken for too long."
    })
final class QueueWorkersCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode body = client.get("/v1/queues/" + ApiClient.segment(queue) + "/workers");
    if (output.json()) {
      output.print(body);
      return 0;
    }
    Table workers = Table.of("WORKER", "TYPES", "LAST LEASE");
    for (JsonNode w : body.path("workers")) {
      List<String> types = new ArrayList<>();
      w.path("types").forEach(t -> types.add(t.asText()));
      workers.row(
          Fields.text(w, "worker"),
          types.isEmpty() ? "*" : String.join(",", types),
          Fields.text(w, "lastLeaseAt"));
    }
    String within = Fields.text(body, "liveWithin");
    if (workers.size() == 0) {
      output.line("no live workers (no lease call within " + within + ")");
    } else {
      output.table(workers);
    }
    JsonNode unserved = body.path("unserved");
    if (unserved.isEmpty()) {
      output.line("every ready type is served");
      return 0;
    }
    Table types = Table.of("UNSERVED TYPE", "READY SINCE");
    for (JsonNode t : unserved) {
      types.row(Fields.text(t, "type"), Fields.text(t, "readySince"));
    }
    output.line("");
    output.line("no live worker takes these types (waiting longer than " + within + "):");
    output.table(types);
    return 0;
  }
}
