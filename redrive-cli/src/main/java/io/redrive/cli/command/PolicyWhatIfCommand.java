package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "what-if",
    mixinStandardHelpOptions = true,
    description =
        "Replays a queue's recorded stories (dead, and completed ones it keeps) under a candidate"
            + " retry policy: how many would complete or die, and how much later. Reads only.")
final class PolicyWhatIfCommand extends ApiCommand {
  @Option(names = "--queue", required = true, description = "the queue whose stories to replay")
  String queue;

  @Option(
      names = "--since",
      description = "stories that ended in this period, 1m to 90d (default 7d)")
  String since;

  @Option(names = "--max-attempts", required = true, description = "deliveries at most, 1-10000")
  int maxAttempts;

  @Option(
      names = "--backoff",
      paramLabel = "SPEC",
      converter = Converters.BackoffValue.class,
      description =
          "exponential:INITIAL:MULTIPLIER:MAX (exponential:1s:2:5m) or fixed:COOLDOWN (fixed:30s);"
              + " default exponential:1m:2:1h.")
  ObjectNode backoff;

  @Option(
      names = "--max-crashes",
      description = "the crash-loop breaker: distinct workers crashed on before dying (0: off)")
  int maxCrashes;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body =
        ApiClient.object().put("maxAttempts", maxAttempts).put("maxCrashes", maxCrashes);
    if (since != null) {
      body.put("since", since);
    }
    if (backoff != null) {
      body.set("backoff", backoff);
    }
    JsonNode r = client.post("/v1/queues/" + ApiClient.segment(queue) + "/what-if", body);
    if (output.json()) {
      output.print(r);
      return 0;
    }
    output.line(
        "replayed "
            + r.path("replayed").asInt()
            + " stories of "
            + queue
            + " ("
            + r.path("skipped").asInt()
            + " without an attempt skipped)");
    Table ends = Table.of("END", "RECORDED", "CANDIDATE").alignRight(1, 2);
    r.path("recorded")
        .fieldNames()
        .forEachRemaining(
            end ->
                ends.row(
                    end.toLowerCase(java.util.Locale.ROOT).replace('_', ' '),
                    r.path("recorded").path(end).asInt(),
                    r.path("candidate").path(end).asInt()));
    output.table(ends);
    output.line(
        "newly completed "
            + r.path("newlyCompleted").asInt()
            + ", newly dead "
            + r.path("newlyDead").asInt());
    JsonNode shift = r.path("shift");
    if (shift.path("count").asInt() > 0) {
      output.line(
          "completion shift over "
              + shift.path("count").asInt()
              + " stories (negative: earlier): total "
              + seconds(shift.path("totalMs"))
              + ", p50 "
              + seconds(shift.path("p50Ms"))
              + ", p90 "
              + seconds(shift.path("p90Ms"))
              + ", p99 "
              + seconds(shift.path("p99Ms"))
              + ", max "
              + seconds(shift.path("maxMs")));
    }
    if (r.path("assumed").asInt() > 0) {
      output.line(r.path("assumed").asInt() + " stories assumed: " + r.path("assumption").asText());
    }
    return 0;
  }

  private static String seconds(JsonNode ms) {
    return java.lang.String.format(java.util.Locale.ROOT, "%.1fs", ms.asLong() / 1000.0);
  }
}
