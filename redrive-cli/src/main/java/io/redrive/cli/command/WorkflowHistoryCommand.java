package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = "Prints an instance's history events, oldest first (every page).")
final class WorkflowHistoryCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "ID")
  String id;

  @Option(
      names = "--execution",
      paramLabel = "N|all",
      description = "One execution (default: the current one) or all.")
  String execution;

  @Option(names = "--turns", description = "Also print each turn's TURN_STARTED event.")
  boolean turns;

  @Override
  int run(ApiClient client, Output output) {
    String path = "/v1/workflows/" + ApiClient.segment(id) + "/history";
    var events = ApiClient.json().createArrayNode();
    String after = null;
    do {
      JsonNode page =
          client.get(
              path,
              ApiClient.Query.of()
                  .add("execution", execution)
                  .add("turns", turns ? "true" : null)
                  .add("after", after));
      page.path("events").forEach(events::add);
      after = Fields.text(page, "next");
    } while (after != null);
    if (output.json()) {
      output.print(ApiClient.object().set("events", events));
      return 0;
    }
    Table t =
        Table.of("#", "EXEC", "TURN", "AT", "KIND", "NAME", "CMD", "DATA")
            .alignRight(0)
            .maxWidth(7, 80);
    for (JsonNode e : events) {
      t.row(
          Fields.text(e, "eventId"),
          Fields.text(e, "execution"),
          Fields.text(e, "turn"),
          Fields.time(e, "at"),
          Fields.text(e, "kind"),
          Fields.text(e, "name", ""),
          Fields.text(e, "seq", ""),
          e.hasNonNull("data") ? e.get("data").toString() : "");
    }
    output.table(t);
    return 0;
  }
}
