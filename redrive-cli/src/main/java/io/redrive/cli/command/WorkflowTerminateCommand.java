package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "terminate",
    mixinStandardHelpOptions = true,
    description = {
      "Asks an instance (and its children) to end as TERMINATED at its next turn,",
      "registered code or not. Refused (exit 4) once it has ended."
    })
final class WorkflowTerminateCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "ID")
  String id;

  @Option(
      names = "--reason",
      paramLabel = "TEXT",
      description = "Why, for its failure and history.")
  String reason;

  @Override
  int run(ApiClient client, Output output) {
    var body = ApiClient.object();
    if (reason != null) {
      body.put("reason", reason);
    }
    JsonNode i = client.post("/v1/workflows/" + ApiClient.segment(id) + "/terminate", body);
    if (output.json()) {
      output.print(i);
    } else {
      output.line(
          "terminate requested for "
              + id
              + " (now "
              + Fields.text(i, "status", "?")
              + "; `redrive workflow wait "
              + id
              + "` to see it end)");
    }
    return 0;
  }
}
