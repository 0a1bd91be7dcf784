package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = {
      "Shows an instance: status, failure (and its last attempt), what it waits on, what is",
      "pending, its children and its timeline (history with every failed turn try and every",
      "activity delivery)."
    })
final class WorkflowShowCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "ID")
  String id;

  @Option(
      names = {"-v", "--verbose"},
      description = "Also print the failure's stack trace.")
  boolean verbose;

  @Override
  int run(ApiClient client, Output output) {
    String path = "/v1/workflows/" + ApiClient.segment(id);
    JsonNode instance = client.get(path);
    JsonNode children = client.get(path + "/children").path("instances");
    JsonNode timeline = client.get(path + "/timeline").path("entries");
    if (output.json()) {
      var all = ApiClient.object();
      all.set("instance", instance);
      all.set("children", children);
      all.set("timeline", timeline);
      output.print(all);
      return 0;
    }
    output.table(WorkflowView.summary(instance));
    JsonNode failure = instance.get("failure");
    if (failure != null && !failure.isNull()) {
      output.line("");
      output.line("failure: " + WorkflowView.failure(failure));
      String last = WorkflowView.lastAttempt(failure, timeline);
      if (last != null) {
        output.line("last attempt: " + last);
      }
      String trace = Fields.text(failure, "stackTrace");
      if (trace != null && !trace.isBlank()) {
        if (verbose) {
          trace.lines().forEach(l -> output.line("  " + l));
        } else {
          output.line("  (stack trace recorded: add --verbose)");
        }
      }
    }
    if (!children.isEmpty()) {
      output.line("");
      output.line("children:");
      output.table(WorkflowListCommand.table(children));
    }
    output.line("");
    output.line("timeline:");
    output.out().print(WorkflowView.timeline(timeline));
    output.out().flush();
    return 0;
  }
}
