package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "retry",
    mixinStandardHelpOptions = true,
    description = {
      "Brings back instances that failed by a system failure (poison, nondeterminism, an",
      "unreadable history): the failure is voided in history and each runs again from where it",
      "stood; completed activities never run again. An application failure is refused (exit 4)."
    })
final class WorkflowRetryCommand extends ApiCommand {
  @Parameters(arity = "1..*", paramLabel = "ID")
  java.util.List<String> ids;

  @Option(names = "--note", paramLabel = "TEXT", description = "Why, kept in history.")
  String note;

  @Override
  int run(ApiClient client, Output output) {
    var results = ApiClient.json().createArrayNode();
    for (String id : ids) {
      var body = ApiClient.object();
      if (note != null) {
        body.put("note", note);
      }
      JsonNode i = client.post("/v1/workflows/" + ApiClient.segment(id) + "/retry", body);
      results.add(i);
      if (!output.json()) {
        output.line("retried " + id + " (now " + Fields.text(i, "status", "?") + ")");
      }
    }
    if (output.json()) {
      output.print(ids.size() == 1 ? results.get(0) : ApiClient.object().set("instances", results));
    }
    return 0;
  }
}
