package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;

@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "Lists the recurring schedules with their next and last fire times.")
final class ScheduleListCommand extends ApiCommand {
  @Override
  int run(ApiClient client, Output output) {
    JsonNode answer = client.get("/v1/schedules");
    if (output.json()) {
      output.print(answer);
      return 0;
    }
    JsonNode schedules = answer.path("schedules");
    if (schedules.isEmpty()) {
      output.line("no schedules (create one with `redrive schedule create NAME ...`)");
      return 0;
    }
    output.table(ScheduleView.list(schedules));
    return 0;
  }
}
