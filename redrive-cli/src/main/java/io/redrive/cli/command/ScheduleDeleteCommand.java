package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    description = "Deletes a recurring schedule; what it produced stays.")
final class ScheduleDeleteCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "SCHEDULE")
  String name;

  @Override
  int run(ApiClient client, Output output) {
    client.delete("/v1/schedules/" + ApiClient.segment(name));
    if (!output.json()) {
      output.line("deleted schedule " + name);
    }
    return 0;
  }
}
