package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "resume", mixinStandardHelpOptions = true, description = "Resumes a paused queue.")
final class QueueResumeCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode q = client.post("/v1/queues/" + ApiClient.segment(queue) + "/resume", null);
    if (output.json()) {
      output.print(q);
    } else {
      output.line("resumed queue " + queue);
    }
    return 0;
  }
}
