package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "throughput",
    aliases = "activity",
    mixinStandardHelpOptions = true,
    description = {
      "Shows a queue's throughput per minute, oldest first: messages enqueued, completed, failed",
      "(failed attempts) and died in the minute, then its depth by state at the minute's snapshot",
      "(- when none was taken). The same on every server node: read from the database.",
      "`queue activity` is a deprecated alias, kept for one release."
    })
final class QueueThroughputCommand extends ApiCommand {
  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'").withZone(ZoneOffset.UTC);

  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Option(
      names = "--minutes",
      defaultValue = "60",
      description = "How many minutes back, 1-1440 (default: ${DEFAULT-VALUE}).")
  int minutes;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode answer =
        client.get("/v1/queues/" + ApiClient.segment(queue) + "/throughput?minutes=" + minutes);
    if (output.json()) {
      output.print(answer);
      return 0;
    }
    Table table =
        Table.of(
                "MINUTE",
                "ENQUEUED",
                "COMPLETED",
                "FAILED",
                "DIED",
                "READY",
                "SCHEDULED",
                "LEASED",
                "DEAD")
            .alignRight(1, 2, 3, 4, 5, 6, 7, 8);
    for (JsonNode p : answer.path("points")) {
      JsonNode depth = p.path("depth");
      boolean snapshot = depth.isObject();
      table.row(
          minute(p.path("minute").asText()),
          p.path("enqueued").asLong(),
          p.path("completed").asLong(),
          p.path("failed").asLong(),
          p.path("dead").asLong(),
          snapshot ? depth.path("ready").asLong() : "-",
          snapshot ? depth.path("scheduled").asLong() : "-",
          snapshot ? depth.path("leased").asLong() : "-",
          snapshot ? depth.path("dead").asLong() : "-");
    }
    output.table(table);
    return 0;
  }

  private static String minute(String iso) {
    try {
      return MINUTE.format(Instant.parse(iso));
    } catch (DateTimeParseException e) {
      return iso;
    }
  }
}
