package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.time.DurationText;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "wait",
    mixinStandardHelpOptions = true,
    description = {
      "Waits for an instance to end and prints its output (COMPLETED, exit 0),",
      "or its failure (FAILED or TERMINATED, exit 7). Still running after --for: exit 1."
    })
final class WorkflowWaitCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "ID")
  String id;

  @Option(
      names = "--for",
      paramLabel = "D",
      defaultValue = "1h",
      converter = Converters.DurationValue.class,
      description =
          "Give up after this long (default: ${DEFAULT-VALUE}); --timeout is per request.")
  String waitFor;

  @Override
  Duration requestTimeoutAtLeast() {
    return WorkflowView.STEP.plusSeconds(10);
  }

  @Override
  int run(ApiClient client, Output output) {
    var end = WorkflowView.await(client, id, DurationText.parse("--for", waitFor));
    if (!WorkflowView.ended(end)) {
      throw CliException.local(
          "STILL_RUNNING",
          "instance " + id + " is still " + Fields.text(end, "status", "?") + " after " + waitFor);
    }
    return WorkflowView.reportEnd(end, output);
  }
}
