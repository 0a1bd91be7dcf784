package io.redrive.cli.command;

import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Output;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.ReplayCheckOptions;
import io.redrive.workflow.ReplayCheckReport;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowReplayer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "replay-check",
    mixinStandardHelpOptions = true,
    description = {
      "Checks a new build against the live instances before it is deployed: loads the build's",
      "registry from its jars, replays every RUNNING instance's current execution with it",
      "(nothing is written) and lists those that would break (nondeterminism at event #k,",
      "an undecodable payload, an unregistered name@version), with the versions running",
      "instances pin. Exit 8 when any would break, 0 when none would."
    })
final class WorkflowReplayCheckCommand extends ApiCommand {
  @Option(
      names = "--jar",
      paramLabel = "FILE",
      required = true,
      description = "The new build's jar (or classes directory); repeatable.")
  List<Path> jars;

  @Option(
      names = "--registry",
      paramLabel = "CLASS#METHOD",
      required = true,
      description = "A public static method returning the build's WorkflowRegistry.")
  String registry;

  @Option(
      names = "--status",
      paramLabel = "S",
      split = ",",
      description = "running (default), pending or failed (system failures a retry would rerun).")
  List<String> statuses;

  @Option(names = "--name", paramLabel = "N", description = "Only this orchestration.")
  String name;

  @Option(names = "--limit", paramLabel = "N", description = "Check at most N instances.")
  Integer limit;

  @Override
  int run(ApiClient client, Output output) {
    WorkflowRegistry build = RegistryLoader.load("--registry", jars, registry);
    ReplayCheckOptions options = ReplayCheckOptions.running();
    if (statuses != null && !statuses.isEmpty()) {
      options =
          options.withStatuses(statuses.stream().map(this::status).toArray(InstanceStatus[]::new));
    }
    if (name != null) {
      options = options.withName(name);
    }
    if (limit != null) {
      options = options.withLimit(limit);
    }
    ReplayCheckReport report =
        WorkflowReplayer.checkLive(build, new ApiInstanceReader(client), options);
    if (output.json()) {
      output.print(parse(report.toJson()));
    } else {
      output.out().print(report.toText());
      output.out().flush();
    }
    return report.ok() ? 0 : ExitCode.REPLAY_BREAKS.code();
  }

  private InstanceStatus status(String text) {
    try {
      return InstanceStatus.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw CliException.usage("--status: running, pending or failed, was \"" + text + "\"");
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode parse(String json) {
    try {
      return ApiClient.json().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("replay-check report is not JSON", e);
    }
  }
}
