package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "redrive",
    mixinStandardHelpOptions = true,
    description = {
      "Moves dead messages out of a dead-letter queue, attempts reset.",
      "They go back to their source queue (or --to), history kept. Try --dry-run first."
    })
final class QueueRedriveCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "DLQ", description = "The dead-letter queue to empty.")
  String queue;

  @Option(
      names = "--to",
      paramLabel = "QUEUE",
      description = "Target queue (default: each message's source queue).")
  String to;

  @Option(
      names = "--reason",
      paramLabel = "REASON",
      description =
          "Only messages dead for this reason (POISON, HANDLER_EXCEPTION...); repeatable.")
  List<String> reasons;

  @Option(
      names = "--type",
      paramLabel = "TYPE",
      description = "Only messages of this type; repeatable.")
  List<String> types;

  @Option(
      names = "--dead-since",
      paramLabel = "TIME",
      description = "Only messages dead at or after TIME (an instant, or a duration ago: 2h).")
  String deadSince;

  @Option(
      names = "--dead-before",
      paramLabel = "TIME",
      description = "Only messages dead before TIME (an instant, or a duration ago).")
  String deadBefore;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "1000",
      description = "Most messages to move (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--dry-run", description = "Report what would move; change nothing.")
  boolean dryRun;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body = ApiClient.object();
    if (to != null) {
      body.put("to", to);
    }
    if (reasons != null) {
      var array = body.putArray("deadReasons");
      reasons.forEach(r -> array.add(r.trim().toUpperCase(Locale.ROOT)));
    }
    if (types != null) {
      var array = body.putArray("types");
      types.forEach(array::add);
    }
    if (deadSince != null) {
      body.put("deadSince", Times.instant("--dead-since", deadSince));
    }
    if (deadBefore != null) {
      body.put("deadBefore", Times.instant("--dead-before", deadBefore));
    }
    body.put("limit", limit).put("dryRun", dryRun);
    JsonNode result = client.post("/v1/queues/" + ApiClient.segment(queue) + "/redrive", body);
    if (output.json()) {
      output.print(result);
      return 0;
    }
    JsonNode moves = result.path("moves");
    int count = result.path("count").asInt(moves.size());
    if (count == 0) {
      output.line("nothing to redrive from " + queue + (dryRun ? " (dry run)" : ""));
    } else {
      output.line(
          (dryRun ? "would redrive " : "redrove ")
              + count
              + (count == 1 ? " message" : " messages")
              + " from "
              + queue
              + (dryRun ? " (dry run: nothing changed)" : ""));
      Table table = Table.of("DEAD-LETTER ID", "TO QUEUE", "NEW ID");
      for (JsonNode move : moves) {
        table.row(
            Fields.text(move, "deadLetterId"),
            Fields.text(move, "toQueue"),
            Fields.text(move, "newId", dryRun ? "" : null));
      }
      output.table(table);
    }
    JsonNode skipped = result.path("skipped");
    if (!skipped.isEmpty()) {
      output.line(
          "skipped "
              + skipped.size()
              + " with no known source queue (give --to QUEUE): "
              + join(skipped));
    }
    return 0;
  }

  private static String join(JsonNode values) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode v : values) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(v.isValueNode() ? v.asText() : v.toString());
    }
    return sb.toString();
  }
}
