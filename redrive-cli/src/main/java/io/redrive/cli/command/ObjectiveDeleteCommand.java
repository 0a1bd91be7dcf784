package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    description = "Deletes a queue-age objective and its counts.")
final class ObjectiveDeleteCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "OBJECTIVE")
  String name;

  @Override
  int run(ApiClient client, Output output) {
    client.delete("/v1/objectives/" + ApiClient.segment(name));
    if (!output.json()) {
      output.line("deleted objective " + name);
    }
    return 0;
  }
}
