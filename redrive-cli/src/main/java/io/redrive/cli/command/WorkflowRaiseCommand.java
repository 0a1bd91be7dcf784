package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "raise",
    mixinStandardHelpOptions = true,
    description = {
      "Raises an event for an instance; buffered until the instance waits for it.",
      "Refused (exit 4) once the instance has ended."
    })
final class WorkflowRaiseCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "ID")
  String id;

  @Parameters(index = "1", paramLabel = "EVENT", description = "The event's name.")
  String event;

  @Option(
      names = "--payload",
      paramLabel = "JSON",
      description = "The event's payload: JSON, @FILE or - for standard input.")
  String payload;

  @Option(
      names = "--dedupe-key",
      paramLabel = "K",
      description = "A second raise with this key, while the first waits, changes nothing.")
  String dedupeKey;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body = ApiClient.object().put("name", event);
    if (payload != null) {
      String text = Inputs.read("--payload", payload);
      JsonNode parsed = ApiClient.jsonOption("--payload", text, "--payload '\"approved\"'");
      if (parsed == null || parsed.isMissingNode()) {
        body.set("payload", parsed);
      } else {
        body.putRawValue("payload", new RawValue(text.strip()));
      }
    }
    if (dedupeKey != null) {
      body.put("dedupeKey", dedupeKey);
    }
    JsonNode r = client.post("/v1/workflows/" + ApiClient.segment(id) + "/events", body);
    if (output.json()) {
      output.print(r);
    } else if (r.path("duplicate").asBoolean()) {
      output.line("duplicate: an event with dedupe key " + dedupeKey + " is already waiting");
    } else {
      output.line("raised " + event + " for " + id);
    }
    return 0;
  }
}
