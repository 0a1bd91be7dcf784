package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(
    name = "update",
    mixinStandardHelpOptions = true,
    description = "Changes a queue's policy: only the flags given change (merge).")
final class QueueUpdateCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Mixin PolicyOptions policy;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body = policy.into(PolicyOptions.empty(), true);
    if (body.isEmpty()) {
      throw CliException.usage("nothing to change: give at least one policy flag (see --help)");
    }
    JsonNode q = client.patch("/v1/queues/" + ApiClient.segment(queue), body);
    if (output.json()) {
      output.print(q);
      return 0;
    }
    output.line("updated queue " + queue);
    output.table(QueueView.policy(q));
    return 0;
  }
}
