package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "start",
    mixinStandardHelpOptions = true,
    description = {
      "Starts an orchestration instance and prints its id.",
      "With --wait, waits for it to end: prints its output, or its failure and exits 7."
    })
final class WorkflowStartCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "The orchestration's name.")
  String name;

  @Option(
      names = "--version",
      paramLabel = "V",
      description = "Pin this version (default: the highest the nodes run).")
  String version;

  @Option(names = "--id", paramLabel = "ID", description = "The instance id (default: a new one).")
  String id;

  @Option(
      names = "--input",
      paramLabel = "JSON",
      description = "The input: JSON, @FILE or - for standard input.")
  String input;

  @Option(
      names = "--delay",
      paramLabel = "D",
      converter = Converters.DurationValue.class,
      description = "Take the first turn this much later (5m).")
  String delay;

  @Option(
      names = "--if-exists",
      paramLabel = "fail|return",
      description = "When the id is taken: fail (exit 4, the default) or return the existing one.")
  String ifExists;

  @Option(
      names = "--wait",
      paramLabel = "D",
      arity = "0..1",
      fallbackValue = "1h",
      converter = Converters.DurationValue.class,
      description = "Wait for the instance to end (at most D, default 1h).")
  String waitFor;

  @Override
  Duration requestTimeoutAtLeast() {
    return waitFor == null ? null : WorkflowView.STEP.plusSeconds(10);
  }

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body = ApiClient.object().put("name", name);
    if (version != null) {
      body.put("version", version);
    }
    if (id != null) {
      body.put("id", id);
    }
    if (input != null) {
      String text = Inputs.read("--input", input);
      JsonNode parsed =
          ApiClient.jsonOption("--input", text, "--input '\"ada\"' or '{\"orderId\":42}'");
      if (parsed == null || parsed.isMissingNode()) {
        body.set("input", parsed);
      } else {
        body.putRawValue("input", new RawValue(text.strip()));
      }
    }
    if (delay != null) {
      body.put("delay", delay);
    }
    if (ifExists != null) {
      body.put("ifExists", ifExists);
    }
    JsonNode started = client.post("/v1/workflows", body);
    String instanceId = Fields.text(started, "id");
    if (waitFor == null) {
      if (output.json()) {
        output.print(started);
      } else {
        output.line(instanceId);
        if (started.hasNonNull("warning")) {
          output.note("warning: " + started.get("warning").asText());
        }
        if (!started.path("created").asBoolean(true)) {
          output.note("existing instance returned (--if-exists return)");
        }
      }
      return 0;
    }
    if (!output.json()) {
      output.note("started " + instanceId + "; waiting for it to end");
    }
    JsonNode end =
        WorkflowView.await(
            client, instanceId, io.redrive.time.DurationText.parse("--wait", waitFor));
    return WorkflowView.reportEnd(end, output);
  }
}
