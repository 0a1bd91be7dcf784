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
      "The next page's --after is printed to standard error.",
      "With --group: the queue's dead messages grouped by the cause they died of (same dead",
      "reason, type, exception, normalised message and top frames), largest group first;",
      "--all-queues instead of QUEUE groups every queue. Give a group's FINGERPRINT to",
      "--fingerprint here, or to message retry / message drop / queue redrive."
    })
final class MessageListCommand extends ApiCommand {
  @Parameters(index = "0", arity = "0..1", paramLabel = "QUEUE")
  String queue;

  @Option(
      names = "--group",
      description = "Dead messages grouped by cause (dead-letter groups) instead of messages.")
  boolean group;

  @Option(names = "--all-queues", description = "With --group: the groups of every queue.")
  boolean allQueues;

  @Option(
      names = "--offset",
      paramLabel = "N",
      description = "With --group: skip this many groups (from the previous page).")
  Integer offset;

  @Option(
      names = "--fingerprint",
      paramLabel = "KEY",
      description = "Only dead messages of this dead-letter group (a key from --group).")
  String fingerprint;

  @Option(
      names = "--min-attempts",
      paramLabel = "N",
      description = "Only messages with at least N attempts.")
  Integer minAttempts;

  @Option(
      names = "--field",
      paramLabel = "PATH=VALUE",
      description = {
        "Only messages whose JSON payload has VALUE at PATH, names separated by dots",
        "(order.id=42 finds {\"order\":{\"id\":42}}); a scan of the queue's messages."
      })
  String field;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      split = ",",
      description =
          "ready, scheduled, leased or dead; repeatable or comma-separated. completed (on its own)"
              + " lists the completed messages the queue keeps, newest first.")
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
    if (group) {
      return groups(client, output);
    }
    if (allQueues || offset != null) {
      throw CliException.usage("--all-queues and --offset go with --group");
    }
    if (queue == null) {
      throw CliException.usage("give a QUEUE (or --group --all-queues for every queue's groups)");
    }
    ApiClient.Query query = ApiClient.Query.of();
    if (states != null) {
      List<String> given = states.stream().map(s -> s.trim().toLowerCase(Locale.ROOT)).toList();
      if (given.contains("completed") && given.stream().anyMatch(s -> !s.equals("completed"))) {
        throw CliException.usage(
            "--state completed goes on its own: completed messages are listed apart");
      }
      given.forEach(s -> query.add("state", s));
    }
    query
        .add("type", type)
        .add("stream", stream)
        .add("reason", upper(reason))
        .add("deadReason", upper(deadReason))
        .add("fingerprint", fingerprint == null ? null : fingerprint.trim())
        .add("minAttempts", minAttempts);
    if (field != null) {
      int eq = field.indexOf('=');
      if (eq < 0 || eq == field.length() - 1) {
        throw CliException.usage("--field: give PATH=VALUE, e.g. --field order.id=42");
      }
      query.add("field", field.substring(0, eq)).add("value", field.substring(eq + 1));
    }
    query.add("after", after).add("limit", limit);
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

  /** {@code --group}: one page of dead-letter groups of QUEUE or of every queue. */
  private int groups(ApiClient client, Output output) {
    if (states != null
        || type != null
        || stream != null
        || reason != null
        || deadReason != null
        || fingerprint != null
        || minAttempts != null
        || field != null
        || after != null) {
      throw CliException.usage(
          "--group takes no message filters (--state, --type, --stream, --reason, --dead-reason,"
              + " --fingerprint, --min-attempts, --field, --after): it groups every dead message");
    }
    if (quiet) {
      throw CliException.usage("--quiet lists ids: it does not go with --group");
    }
    if ((queue == null) == !allQueues) {
      throw CliException.usage("with --group give a QUEUE or --all-queues, not both");
    }
    ApiClient.Query query = ApiClient.Query.of().add("limit", limit).add("offset", offset);
    JsonNode page =
        allQueues
            ? client.get("/v1/dead-groups", query)
            : client.get("/v1/queues/" + ApiClient.segment(queue) + "/dead-groups", query);
    if (output.json()) {
      output.print(page);
      return 0;
    }
    JsonNode groups = page.path("groups");
    if (groups.isEmpty()) {
      output.line("no dead messages");
    } else {
      output.table(groupTable(groups, allQueues));
    }
    String next = Fields.text(page, "nextOffset");
    if (next != null) {
      output.note("more: add --offset " + next);
    }
    return 0;
  }

  /** Dead-letter groups as a table; the QUEUE column only for every queue's groups. */
  static Table groupTable(JsonNode groups, boolean withQueue) {
    List<String> header =
        new java.util.ArrayList<>(
            List.of(
                "COUNT",
                "REASON",
                "TYPE",
                "EXCEPTION",
                "PATTERN",
                "FIRST SEEN",
                "LAST SEEN",
                "FINGERPRINT"));
    if (withQueue) {
      header.add(1, "QUEUE");
    }
    int pattern = withQueue ? 5 : 4;
    Table table = Table.of(header.toArray(String[]::new)).maxWidth(pattern, 60);
    table.alignRight(0);
    for (JsonNode g : groups) {
      List<Object> row =
          new java.util.ArrayList<>(
              java.util.Arrays.asList(
                  Fields.text(g, "count", "0"),
                  deadReasonText(g),
                  Fields.text(g, "type"),
                  Fields.text(g, "exceptionClass"),
                  Fields.text(g, "pattern"),
                  Fields.time(g, "firstDeadAt"),
                  Fields.time(g, "lastDeadAt"),
                  Fields.text(g, "fingerprint")));
      if (withQueue) {
        row.add(1, Fields.text(g, "queue"));
      }
      table.row(row.toArray());
    }
    return table;
  }

  /** {@code POISON} alone says little: name the failure the messages were poisoned after. */
  private static String deadReasonText(JsonNode g) {
    String dead = Fields.text(g, "deadReason");
    String cause = Fields.text(g, "causeReason");
    return cause == null || cause.equals(dead) ? dead : dead + " (" + cause + ")";
  }

  /**
   * The page as a table; the LAST ERROR column only when some message carries one. A page of
   * completed messages (listed on their own) shows when each completed instead of NEXT / DEAD AT.
   */
  static Table table(JsonNode messages) {
    boolean errors = false;
    boolean completed = true;
    for (JsonNode m : messages) {
      errors |= m.hasNonNull("lastError");
      completed &= "COMPLETED".equals(Fields.text(m, "state"));
    }
    String when = completed ? "COMPLETED AT" : "NEXT / DEAD AT";
    Table table =
        errors
            ? Table.of(
                    "ID",
                    "STATE",
                    "TYPE",
                    "ATTEMPTS",
                    "STREAM",
                    "ENQUEUED",
                    when,
                    "REASON",
                    "LAST ERROR")
                .maxWidth(8, 60)
            : Table.of("ID", "STATE", "TYPE", "ATTEMPTS", "STREAM", "ENQUEUED", when, "REASON");
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
        Fields.time(m, dead ? "deadAt" : completed ? "completedAt" : "visibleAt"),
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
