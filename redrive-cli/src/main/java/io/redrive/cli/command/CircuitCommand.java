package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code redrive circuit}: the circuit breakers of a queue's dependencies. */
@Command(
    name = "circuit",
    mixinStandardHelpOptions = true,
    description = "List, show, open and close the circuit breakers of a queue's dependencies.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
      CircuitCommand.List.class,
      CircuitCommand.Show.class,
      CircuitCommand.Open.class,
      CircuitCommand.Close.class
    })
public final class CircuitCommand {

  private static JsonNode circuits(ApiClient client, String queue) {
    return client.get("/v1/queues/" + ApiClient.segment(queue) + "/circuits");
  }

  private static String types(JsonNode types) {
    StringBuilder out = new StringBuilder();
    for (JsonNode t : types) {
      out.append(out.length() == 0 ? "" : ", ").append(t.asText());
    }
    return out.length() == 0 ? "-" : out.toString();
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.path(field);
    return v.isMissingNode() || v.isNull() ? "-" : v.asText();
  }

  /** {@code redrive circuit list QUEUE}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Lists a queue's circuits: state, failures, since, next probe.")
  static final class List extends ApiCommand {
    @Parameters(index = "0", paramLabel = "QUEUE")
    String queue;

    @Override
    int run(ApiClient client, Output output) {
      JsonNode answer = circuits(client, queue);
      if (output.json()) {
        output.print(answer);
        return 0;
      }
      JsonNode all = answer.path("circuits");
      if (all.isEmpty()) {
        output.line("no circuits in queue " + queue + " (nothing has failed against a dependency)");
        return 0;
      }
      Table table =
          Table.of("DEPENDENCY", "STATE", "FAILURES", "HELD", "SINCE", "NEXT PROBE", "BY");
      for (JsonNode c : all) {
        table.row(
            c.path("dependency").asText(),
            c.path("state").asText(),
            c.path("failures").asText(),
            c.path("held").asText("0"),
            text(c, "changedAt"),
            text(c, "nextProbeAt"),
            text(c, "changedBy"));
      }
      output.table(table);
      return 0;
    }
  }

  /** {@code redrive circuit show QUEUE DEPENDENCY}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Shows one circuit with its types and its last changes.")
  static final class Show extends ApiCommand {
    @Parameters(index = "0", paramLabel = "QUEUE")
    String queue;

    @Parameters(index = "1", paramLabel = "DEPENDENCY")
    String dependency;

    @Override
    int run(ApiClient client, Output output) {
      JsonNode found = null;
      for (JsonNode c : circuits(client, queue).path("circuits")) {
        if (c.path("dependency").asText().equals(dependency)) {
          found = c;
        }
      }
      if (found == null) {
        output.line("no circuit " + dependency + " in queue " + queue);
        return ExitCode.NOT_FOUND.code();
      }
      if (output.json()) {
        output.print(found);
        return 0;
      }
      output.table(
          Table.withoutHeader(2)
              .row("dependency", dependency)
              .row("state", found.path("state").asText())
              .row("failures", found.path("failures").asText())
              .row("held", found.path("held").asText("0"))
              .row("opened", text(found, "openedAt"))
              .row("next probe", text(found, "nextProbeAt"))
              .row("wave", found.path("wave").asText())
              .row("types", types(found.path("types")))
              .row("changed", text(found, "changedAt") + " by " + text(found, "changedBy")));
      Table history = Table.of("AT", "STATE", "BY");
      for (JsonNode h : found.path("history")) {
        history.row(h.path("at").asText(), h.path("state").asText(), h.path("by").asText());
      }
      output.table(history);
      return 0;
    }
  }

  /** {@code redrive circuit open QUEUE DEPENDENCY}. */
  @Command(
      name = "open",
      mixinStandardHelpOptions = true,
      description =
          "Opens a circuit by hand: messages that need the dependency are held, without probes,"
              + " until it is closed by hand.")
  static final class Open extends ApiCommand {
    @Parameters(index = "0", paramLabel = "QUEUE")
    String queue;

    @Parameters(index = "1", paramLabel = "DEPENDENCY")
    String dependency;

    @Override
    int run(ApiClient client, Output output) {
      return set(client, output, queue, dependency, "open");
    }
  }

  /** {@code redrive circuit close QUEUE DEPENDENCY}. */
  @Command(
      name = "close",
      mixinStandardHelpOptions = true,
      description = "Closes a circuit by hand: messages that need the dependency flow again.")
  static final class Close extends ApiCommand {
    @Parameters(index = "0", paramLabel = "QUEUE")
    String queue;

    @Parameters(index = "1", paramLabel = "DEPENDENCY")
    String dependency;

    @Override
    int run(ApiClient client, Output output) {
      return set(client, output, queue, dependency, "close");
    }
  }

  private static int set(
      ApiClient client, Output output, String queue, String dependency, String action) {
    JsonNode c =
        client.post(
            "/v1/queues/"
                + ApiClient.segment(queue)
                + "/circuits/"
                + ApiClient.segment(dependency)
                + "/"
                + action,
            null);
    if (output.json()) {
      output.print(c);
    } else {
      output.line(
          "circuit " + dependency + " of queue " + queue + " is " + c.path("state").asText());
    }
    return 0;
  }
}
