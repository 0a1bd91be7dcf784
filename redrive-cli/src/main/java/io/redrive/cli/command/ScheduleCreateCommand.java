package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description =
        "Creates or replaces a recurring schedule: --cron (with --zone) or --every, and --queue"
            + " with --type (and the message's --header, --stream, --expire-after, --priority,"
            + " --limit-key) for a message or --workflow for a workflow start; --paused creates it"
            + " paused.")
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

  @Option(
      names = "--header",
      paramLabel = "KEY=VALUE",
      description = "a header of the message; repeatable")
  Map<String, String> headers;

  @Option(names = "--stream", paramLabel = "KEY", description = "the message's ordering key")
  String stream;

  @Option(
      names = "--expire-after",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "the message dies as EXPIRED if not done this long after it is produced")
  String expireAfter;

  @Option(
      names = "--priority",
      paramLabel = "N",
      description = "the message's priority, 0-9 (default: the queue's default priority)")
  Integer priority;

  @Option(
      names = "--limit-key",
      paramLabel = "KEY",
      description = "the key the queue's flow limits count the message under")
  String limitKey;

  @Option(names = "--paused", description = "create it paused (it fires nothing until resumed)")
  boolean paused;

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
    if (headers != null && !headers.isEmpty()) {
      ObjectNode h = body.putObject("headers");
      headers.forEach(h::put);
    }
    put(body, "stream", stream);
    put(body, "expireAfter", expireAfter);
    if (priority != null) {
      if (priority < 0 || priority > 9) {
        throw CliException.usage("--priority: must be between 0 and 9, was " + priority);
      }
      body.put("priority", priority);
    }
    put(body, "limitKey", limitKey);
    put(body, "workflow", workflow);
    put(body, "input", input);
    put(body, "jitter", jitter);
    put(body, "catchUp", catchUp);
    if (paused) {
      body.put("paused", true);
    }
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
