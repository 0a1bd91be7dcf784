package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.util.Locale;
import picocli.CommandLine.Command;

@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "Lists the queue-age objectives: compliance over the window, burn rate over 5m and 1h,"
            + " error budget left and time to its exhaustion.")
final class ObjectiveListCommand extends ApiCommand {
  @Override
  int run(ApiClient client, Output output) {
    JsonNode answer = client.get("/v1/objectives");
    if (output.json()) {
      output.print(answer);
      return 0;
    }
    JsonNode objectives = answer.path("objectives");
    if (objectives.isEmpty()) {
      output.line("no objectives (set one with `redrive objective set NAME ...`)");
      return 0;
    }
    Table table =
        Table.of(
            "NAME",
            "QUEUE",
            "KIND",
            "TARGET",
            "BOUND",
            "WINDOW",
            "COMPLIANCE",
            "STATE",
            "BURN 5M",
            "BURN 1H",
            "BUDGET LEFT",
            "EXHAUSTED IN");
    for (JsonNode o : objectives) {
      table.row(
          o.path("name").asText(),
          scope(o),
          o.path("kind").asText().toLowerCase(Locale.ROOT),
          percent(o.path("target")),
          o.path("bound").asText(),
          o.path("window").asText(),
          percent(o.path("compliance")),
          o.path("breached").asBoolean() ? "BREACHED" : "ok",
          number(o.path("burnRateShort")),
          number(o.path("burnRateLong")),
          percent(o.path("budgetRemaining")),
          o.path("exhaustionSeconds").isNull() ? "-" : o.path("exhaustionSeconds").asLong() + "s");
    }
    output.table(table);
    return 0;
  }

  private static String scope(JsonNode o) {
    String s = o.path("queue").asText();
    if (o.hasNonNull("type")) {
      s += " type " + o.get("type").asText();
    }
    if (o.hasNonNull("stream")) {
      s += " stream " + o.get("stream").asText();
    }
    return s;
  }

  static String percent(JsonNode n) {
    return n.isNull() || n.isMissingNode()
        ? "-"
        : String.format(Locale.ROOT, "%.2f%%", n.asDouble() * 100);
  }

  private static String number(JsonNode n) {
    return String.format(Locale.ROOT, "%.2f", n.asDouble());
  }
}
