package io.redrive.cli.command;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Output;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "set",
    mixinStandardHelpOptions = true,
    description = "Creates or replaces a queue-age objective (its counts are kept).")
final class ObjectiveSetCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "OBJECTIVE")
  String name;

  @Option(names = "--queue", required = true, description = "the queue measured")
  String queue;

  @Option(names = "--type", description = "only messages of this type")
  String type;

  @Option(names = "--stream", description = "only messages of this stream")
  String stream;

  @Option(
      names = "--kind",
      required = true,
      description =
          "latency (share of first leases within --bound of their enqueue) or age (share of"
              + " minutes whose oldest ready message is younger than --bound)")
  String kind;

  @Option(
      names = "--target",
      required = true,
      description = "the share that must be good: 0.95 or 95%")
  String target;

  @Option(names = "--bound", required = true, description = "a duration, at least 1s (e.g. 1m)")
  String bound;

  @Option(names = "--window", description = "whole minutes from 1h to 28d (default 28d)")
  String window;

  @Override
  int run(ApiClient client, Output output) {
    ObjectNode body =
        ApiClient.object()
            .put("queue", queue)
            .put("kind", kind)
            .put("target", share(target))
            .put("bound", bound);
    if (type != null) {
      body.put("type", type);
    }
    if (stream != null) {
      body.put("stream", stream);
    }
    if (window != null) {
      body.put("window", window);
    }
    var answer = client.put("/v1/objectives/" + ApiClient.segment(name), body);
    if (output.json()) {
      output.print(answer);
    } else {
      output.line(
          "saved objective "
              + name
              + ": "
              + ObjectiveListCommand.percent(answer.path("target"))
              + " of "
              + queue
              + " within "
              + bound);
    }
    return 0;
  }

  /** {@code 0.95} or {@code 95%} as a share. */
  static double share(String text) {
    String t = text.trim();
    try {
      return t.endsWith("%")
          ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100
          : Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--target: expected a share such as 0.95 or 95%, was \"" + text + "\"");
    }
  }
}
