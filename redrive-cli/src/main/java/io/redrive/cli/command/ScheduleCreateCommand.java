package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description =
        "Creates or replaces a recurring schedule: --cron (with --zone) or --every, and --queue"
            + " with --type for a message or --workflow for a workflow start.")
final class ScheduleCreateCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "SCHEDULE")
  String name;

  @Option(names = "--cron", description = "5 fields, or 6 with seconds first")
  String cron;

  @Option(names = "--zone", description = "the time zone --cron is read in (default UTC)")
  String zone;

  @Option(names = "--every", description = "a fixed interval, at least 1s (e.g. 5m)")
  String every;

  @Option(names = "--queue", description = "the queue the message goes to")
  String queue;

  @Option(names = "--type", description = "the message's type")
  String type;

  @Option(names = "--payload", description = "the message's payload (default empty)")
  String payload;

  @Option(names = "--workflow", description = "an orchestration to start instead")
  String workflow;

  @Option(names = "--input", description = "the orchestration's input (JSON)")
  String input;

  @Option(names = "--jitter", description = "delay each due time by up to this (default 0s)")
  String jitter;

  @Option(names = "--catch-up", description = "once (default), skip or all:N")
  String catchUp;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body = ApiClient.object();
    put(body, "cron", cron);
    put(body, "zone", zone);
    put(body, "every", every);
    put(body, "queue", queue);
    put(body, "type", type);
    put(body, "payload", payload);
    put(body, "workflow", workflow);
    put(body, "input", input);
    put(body, "jitter", jitter);
    put(body, "catchUp", catchUp);
    JsonNode s = client.put("/v1/schedules/" + ApiClient.segment(name), body);
    if (output.json()) {
      output.print(s);
      return 0;
    }
    output.line("saved schedule " + name);
    output.table(ScheduleView.one(s));
    return 0;
  }

  private static void put(ObjectNode body, String field, String value) {
    if (value != null) {
      body.put(field, value);
    }
  }
}
