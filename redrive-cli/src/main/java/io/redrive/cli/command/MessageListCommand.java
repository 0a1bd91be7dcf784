package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "Lists a queue's messages, one page at a time.",
      "The next page's --after is printed to standard error."
    })
final class MessageListCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      split = ",",
      description = "ready, scheduled, leased or dead; repeatable or comma-separated.")
  List<String> states;

  @Option(names = "--type", paramLabel = "TYPE", description = "Only this type.")
  String type;

  @Option(names = "--stream", paramLabel = "KEY", description = "Only this stream.")
  String stream;

  @Option(
      names = "--reason",
      paramLabel = "REASON",
      description = "Only messages whose last failure has this reason.")
  String reason;

  @Option(
      names = "--dead-reason",
      paramLabel = "REASON",
      description = "Only dead messages that died for this reason (POISON, EXPIRED...).")
  String deadReason;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "100",
      description = "Page size (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--after",
      paramLabel = "CURSOR",
      description = "Start after this cursor (from the previous page).")
  String after;

  @Option(
      names = {"-q", "--quiet"},
      description = "Print only the ids, one per line: ID=$(redrive message list q --quiet).")
  boolean quiet;

  @Override
  int run(ApiClient client, Output output) {
    if (quiet && output.json()) {
      throw CliException.usage("give --quiet or --json, not both");
    }
    ApiClient.Query query = ApiClient.Query.of();
    if (states != null) {
      states.forEach(s -> query.add("state", s.trim().toLowerCase(Locale.ROOT)));
    }
    query
        .add("type", type)
        .add("stream", stream)
        .add("reason", upper(reason))
        .add("deadReason", upper(deadReason))
        .add("after", after)
        .add("limit", limit);
    JsonNode page = client.get("/v1/queues/" + ApiClient.segment(queue) + "/messages", query);
    if (output.json()) {
      output.print(page);
      return 0;
    }
    JsonNode messages = page.path("messages");
    if (quiet) {
      messages.forEach(m -> output.line(Fields.text(m, "id")));
    } else if (messages.isEmpty()) {
      output.line("no messages");
    } else {
      output.table(table(messages));
    }
    String next = Fields.text(page, "next");
    if (next != null) {
      output.note("more: add --after " + next);
    }
    return 0;
  }

  /** The page as a table; the LAST ERROR column only when some message carries one. */
  static Table table(JsonNode messages) {
    boolean errors = false;
    for (JsonNode m : messages) {
      errors |= m.hasNonNull("lastError");
    }
    Table table =
        errors
            ? Table.of(
                    "ID",
                    "STATE",
                    "TYPE",
                    "ATTEMPTS",
                    "STREAM",
                    "ENQUEUED",
                    "NEXT / DEAD AT",
                    "REASON",
                    "LAST ERROR")
                .maxWidth(8, 60)
            : Table.of(
                "ID",
                "STATE",
                "TYPE",
                "ATTEMPTS",
                "STREAM",
                "ENQUEUED",
                "NEXT / DEAD AT",
                "REASON");
    table.alignRight(3);
    for (JsonNode m : messages) {
      String state = Fields.text(m, "state", "?");
      boolean dead = state.equals("DEAD");
      JsonNode error = m.get("lastError");
      Object[] row = {
        Fields.text(m, "id"),
        state,
        Fields.text(m, "type"),
        Fields.text(m, "attempts", "0") + "/" + Fields.text(m, "maxAttempts", "?"),
        Fields.text(m, "stream"),
        Fields.time(m, "enqueuedAt"),
        dead ? Fields.time(m, "deadAt") : Fields.time(m, "visibleAt"),
        dead ? Fields.text(m, "deadReason") : Fields.text(error, "reason"),
        Fields.text(error, "message")
      };
      table.row(errors ? row : java.util.Arrays.copyOf(row, 8));
    }
    return table;
  }

  private static String upper(String value) {
    return value == null ? null : value.trim().toUpperCase(Locale.ROOT);
  }
}
