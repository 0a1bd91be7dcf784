package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;

@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "Lists the queues (those the token may see) with their policies.")
final class QueueListCommand extends ApiCommand {
  @Override
  int run(ApiClient client, Output output) {
    JsonNode answer = client.get("/v1/queues");
    if (output.json()) {
      output.print(answer);
      return 0;
    }
    JsonNode queues = answer.path("queues");
    if (queues.isEmpty()) {
      output.line("no queues (create one with `redrive queue create NAME`)");
      return 0;
    }
    output.table(QueueView.list(queues));
    return 0;
  }
}
