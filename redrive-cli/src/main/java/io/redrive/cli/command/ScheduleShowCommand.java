package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = "Shows a recurring schedule with its next and last due and fire times.")
final class ScheduleShowCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "SCHEDULE")
  String name;

  @Override
  int run(ApiClient client, Output output) {
    JsonNode s = client.get("/v1/schedules/" + ApiClient.segment(name));
    if (output.json()) {
      output.print(s);
    } else {
      output.table(ScheduleView.one(s));
    }
    return 0;
  }
}
