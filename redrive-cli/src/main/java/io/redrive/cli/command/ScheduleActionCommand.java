package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** The one-word actions on a schedule: pause, resume, trigger. */
abstract class ScheduleActionCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "SCHEDULE")
  String name;

  abstract String action();

  @Override
  int run(ApiClient client, Output output) {
    JsonNode answer =
        client.post("/v1/schedules/" + ApiClient.segment(name) + "/" + action(), null);
    if (output.json()) {
      output.print(answer);
    } else if (answer.has("producedId")) {
      output.line(
          (answer.path("created").asBoolean() ? "triggered " : "already produced ")
              + name
              + ": "
              + answer.path("producedId").asText());
    } else {
      output.line(action() + "d schedule " + name);
    }
    return 0;
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = "Pauses a recurring schedule: it fires nothing until resumed.")
  static final class Pause extends ScheduleActionCommand {
    @Override
    String action() {
      return "pause";
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description =
          "Resumes a recurring schedule from its next due time after now (paused-over due times"
              + " never fire).")
  static final class Resume extends ScheduleActionCommand {
    @Override
    String action() {
      return "resume";
    }
  }

  @Command(
      name = "trigger",
      mixinStandardHelpOptions = true,
      description = "Produces a recurring schedule's message or workflow start once now.")
  static final class Trigger extends ScheduleActionCommand {
    @Override
    String action() {
      return "trigger";
    }
  }
}
