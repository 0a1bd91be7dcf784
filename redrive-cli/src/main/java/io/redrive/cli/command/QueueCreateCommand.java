package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = "Creates a queue; policy flags not given take the defaults.")
final class QueueCreateCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Mixin PolicyOptions policy;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body = PolicyOptions.empty().put("name", queue);
    JsonNode q = client.post("/v1/queues", policy.into(body, false));
    if (output.json()) {
      output.print(q);
      return 0;
    }
    output.line("created queue " + queue);
    output.table(QueueView.policy(q));
    return 0;
  }
}
