package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "pause",
    mixinStandardHelpOptions = true,
    description =
        "Pauses a queue: nothing is leased from it until it is resumed; enqueue still works.")
final class QueuePauseCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode q = client.post("/v1/queues/" + ApiClient.segment(queue) + "/pause", null);
    if (output.json()) {
      output.print(q);
    } else {
      output.line("paused queue " + queue);
    }
    return 0;
  }
}
