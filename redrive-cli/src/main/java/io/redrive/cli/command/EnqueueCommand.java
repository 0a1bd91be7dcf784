package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "enqueue",
    mixinStandardHelpOptions = true,
    description = "Enqueues one message and prints its id.")
public final class EnqueueCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "QUEUE")
  String queue;

  @Option(
      names = "--type",
      required = true,
      paramLabel = "TYPE",
      description = "The handler the message is addressed to (send-email).")
  String type;

  @Option(
      names = "--payload",
      paramLabel = "JSON|@FILE|-",
      description = "The body: JSON text, @file to read it from a file, or - for standard input.")
  String payload;

  @Option(names = "--header", paramLabel = "KEY=VALUE", description = "A header; repeatable.")
  Map<String, String> headers;

  @Option(
      names = "--stream",
      paramLabel = "KEY",
      description = "Ordering key: one message of a stream at a time, in enqueue order.")
  String stream;

  @Option(
      names = "--delay",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Not leasable before this delay (5m).")
  String delay;

  @Option(
      names = "--dedupe-key",
      paramLabel = "KEY",
      description = "A second message with the same key is a duplicate, not enqueued.")
  String dedupeKey;

  @Option(
      names = "--limit-key",
      paramLabel = "KEY",
      description =
          "The key the queue's flow limits count the message under (a tenant, user, host).")
  String limitKey;

  @Option(
      names = "--expire-after",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description = "Dies as EXPIRED if not done by then (1h).")
  String expireAfter;

  @Option(
      names = "--priority",
      paramLabel = "N",
      description = "0-9, higher served first (default: the queue's default priority).")
  Integer priority;

  @Option(
      names = "--unique-key",
      paramLabel = "KEY",
      description =
          "Held until the message is first leased; a second enqueue with it meanwhile keeps or"
              + " replaces the waiting message (--on-duplicate).")
  String uniqueKey;

  @Option(
      names = "--on-duplicate",
      paramLabel = "keep|replace",
      description =
          "With --unique-key: keep the waiting message (default) or replace its payload, headers"
              + " and delay.")
  String onDuplicate;

  @Option(
      names = "--debounce",
      paramLabel = "DURATION",
      converter = Converters.DurationValue.class,
      description =
          "With --unique-key: visible this long after the last enqueue with the key (30s).")
  String debounce;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode message = ApiClient.object().put("type", type);
    if (payload != null) {
      String text = Inputs.read("--payload", payload);
      JsonNode parsed =
          ApiClient.jsonOption(
              "--payload", text, "--payload '\"hello\"' or '{\"to\":\"ada@example.com\"}'");
      if (parsed == null || parsed.isMissingNode()) {
        message.set("payload", parsed);
      } else {
        // Sent as written (numbers like 1.10 or 1e2 unchanged), so signatures over it survive.
        message.putRawValue("payload", new RawValue(text.strip()));
      }
    }
    if (headers != null && !headers.isEmpty()) {
      ObjectNode h = message.putObject("headers");
      headers.forEach(h::put);
    }
    putIfGiven(message, "stream", stream);
    putIfGiven(message, "delay", delay);
    putIfGiven(message, "dedupeKey", dedupeKey);
    putIfGiven(message, "limitKey", limitKey);
    putIfGiven(message, "expireAfter", expireAfter);
    if (priority != null) {
      if (priority < 0 || priority > 9) {
        throw CliException.usage("--priority: must be between 0 and 9, was " + priority);
      }
      message.put("priority", priority);
    }
    putIfGiven(message, "uniqueKey", uniqueKey);
    putIfGiven(message, "onDuplicate", onDuplicate);
    putIfGiven(message, "debounce", debounce);
    ObjectNode body = ApiClient.object();
    body.putArray("messages").add(message);
    JsonNode answer = client.post("/v1/queues/" + ApiClient.segment(queue) + "/messages", body);
    JsonNode result = answer.path("results").path(0);
    if (output.json()) {
      output.print(result.isMissingNode() ? answer : result);
      return 0;
    }
    String id = Fields.text(result, "id");
    if (result.path("duplicate").asBoolean() && uniqueKey != null) {
      output.line(id + " (duplicate: a message with unique key " + uniqueKey + " is waiting)");
    } else if (result.path("duplicate").asBoolean()) {
      output.line(
          id + " (duplicate: a message with dedupe key " + dedupeKey + " is already enqueued)");
    } else if (result.path("replaced").asBoolean()) {
      output.line(
          id + " (replaced: the message waiting with unique key " + uniqueKey + " took this one)");
    } else {
      output.line(id);
    }
    return 0;
  }

  private static void putIfGiven(ObjectNode node, String field, String value) {
    if (value != null) {
      node.put(field, value);
    }
  }
}
