package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.output.Output;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the stream orders a redrive answers (docs/cli.md, "Redrive and stream order"): for each
 * stream it put messages back into, its waiting messages in delivery order, the redriven ones
 * marked with {@code *}. Stateless.
 */
final class StreamOrders {
  /** Most ids printed per stream; --json has them all. */
  static final int SHOWN = 20;

  private StreamOrders() {}

  static void print(Output output, JsonNode streams, boolean dryRun) {
    for (JsonNode s : streams) {
      List<String> redriven = new ArrayList<>();
      s.path("redriven").forEach(n -> redriven.add(n.asText()));
      List<String> shown = new ArrayList<>();
      for (JsonNode id : s.path("ids")) {
        if (shown.size() == SHOWN) {
          shown.add("... (" + s.path("ids").size() + " in all; --json lists them)");
          break;
        }
        shown.add(id.asText() + (redriven.contains(id.asText()) ? "*" : ""));
      }
      output.line(
          "stream "
              + s.path("stream").asText()
              + " in "
              + s.path("queue").asText()
              + (dryRun ? " would be delivered in this order" : " will be delivered in this order")
              + " (* redriven): "
              + String.join(" ", shown));
    }
  }
}
