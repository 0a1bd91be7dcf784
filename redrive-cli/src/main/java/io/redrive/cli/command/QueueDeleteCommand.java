package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    description =
        "Deletes a queue and its messages (refused while it is another queue's dead-letter queue).")
final class QueueDeleteCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Override
  int run(ApiClient client, Output output) {
    client.delete("/v1/queues/" + ApiClient.segment(queue));
    if (output.json()) {
      output.print(ApiClient.object().put("deleted", queue));
    } else {
      output.line("deleted queue " + queue);
    }
    return 0;
  }
}
