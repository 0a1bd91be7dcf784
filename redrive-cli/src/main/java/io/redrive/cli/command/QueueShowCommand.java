package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "Shows a queue's policy and its message counts.")
final class QueueShowCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode q = client.get("/v1/queues/" + ApiClient.segment(queue));
    if (output.json()) {
      output.print(q);
      return 0;
    }
    output.table(QueueView.policy(q));
    if (q.hasNonNull("stats")) {
      output.line("");
      output.table(QueueView.stats(q.get("stats")));
    }
    return 0;
  }
}
