package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    description = {
      "Deletes a root instance with its whole tree (children, histories, activity messages).",
      "Refused (exit 4) for a child (NOT_ROOT) or while an instance of the tree runs",
      "(TREE_RUNNING) unless --force."
    })
final class WorkflowDeleteCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "ID")
  String id;

  @Option(names = "--force", description = "Also while instances of the tree still run.")
  boolean force;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode r =
        client.delete("/v1/workflows/" + ApiClient.segment(id) + (force ? "?force=true" : ""));
    if (output.json()) {
      output.print(r);
    } else {
      output.line(
          "deleted "
              + id
              + ": "
              + Fields.text(r, "instances", "?")
              + " instance(s), "
              + Fields.text(r, "messages", "?")
              + " activity message(s)");
    }
    return 0;
  }
}
