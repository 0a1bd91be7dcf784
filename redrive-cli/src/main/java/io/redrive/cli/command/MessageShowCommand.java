package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.client.CliException;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import io.redrive.cli.output.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description = {
      "Shows a message and its attempt history as a timeline.",
      "ID may be a unique prefix (at least 4 characters); an ambiguous prefix is an error",
      "(exit 4). Any id the message had finds it: the id an enqueue returned, after the",
      "message moved to a dead-letter queue, shows the copy there (noted on stderr); a",
      "copy shows its lineage, every id of its story with its queue and state."
    })
final class MessageShowCommand extends ApiCommand {
  private static final int SHORT_PAYLOAD = 200;

  @Parameters(index = "0", paramLabel = "ID")
  String id;

  @Option(
      names = {"-v", "--verbose"},
      description = "Also print the whole payload and the last error's stack trace.")
  boolean verbose;

  @Override
  int run(ApiClient client, Output output) {
    String asked = id.trim();
    JsonNode m;
    try {
      m = client.get("/v1/messages/" + ApiClient.segment(asked));
    } catch (CliException e) {
      JsonNode moved = e.status() == 404 ? lineage(client, asked) : null;
      if (moved == null || moved.path("current").isNull() || asked.equals(current(moved))) {
        throw e;
      }
      // The id the enqueue returned is gone once the message moved to a dead-letter queue: show
      // the message where it is now, saying so on stderr so that --json stays one object.
      output.err().println("note: " + asked + " moved; showing " + current(moved) + ", its copy");
      output.err().flush();
      m = client.get("/v1/messages/" + ApiClient.segment(current(moved)));
    }
    if (output.json()) {
      output.print(m);
      return 0;
    }
    JsonNode story = m.hasNonNull("sourceId") ? lineage(client, Fields.text(m, "id")) : null;
    output.table(summary(m, story));
    output.line("");
    output.line("history:");
    output.out().print(Timeline.render(m.get("history")));
    JsonNode error = m.get("lastError");
    if (error != null && !error.isNull()) {
      output.line("");
      output.line("last error: " + lastError(error));
      String trace = Fields.text(error, "stackTrace");
      if (trace != null && !trace.isBlank()) {
        if (verbose) {
          trace.lines().forEach(l -> output.line("  " + l));
        } else {
          output.line("  (stack trace recorded: add --verbose)");
        }
      }
    }
    output.out().flush();
    return 0;
  }

  private Table summary(JsonNode m, JsonNode lineage) {
    String state = Fields.text(m, "state", "?");
    if (state.equals("DEAD")) {
      state += " (" + Fields.text(m, "deadReason", "?") + " at " + Fields.time(m, "deadAt") + ")";
    } else if (state.equals("LEASED")) {
      state +=
          " (by " + Fields.text(m, "leasedBy", "?") + " until " + Fields.time(m, "visibleAt") + ")";
    } else if (state.equals("SCHEDULED")) {
      state += " (visible at " + Fields.time(m, "visibleAt") + ")";
    } else if (state.equals("COMPLETED") && m.hasNonNull("completedAt")) {
      state += " (at " + Fields.time(m, "completedAt") + ")";
    }
    Table t =
        Table.withoutHeader(2)
            .row("id", Fields.text(m, "id"))
            .row("queue", Fields.text(m, "queue"))
            .row("type", Fields.text(m, "type"))
            .row("state", state)
            .row(
                "attempts",
                Fields.text(m, "attempts", "0") + " of " + Fields.text(m, "maxAttempts", "?"))
            .row("stream", Fields.text(m, "stream"))
            .row("priority", Fields.text(m, "priority", "0"))
            .row("enqueued", Fields.time(m, "enqueuedAt"))
            .row("expires", Fields.time(m, "expireAt"));
    if (m.path("progress").asLong() != 0) {
      t.row("progress", "0b" + Long.toBinaryString(m.path("progress").asLong()));
    }
    if (m.hasNonNull("sourceId")) {
      String from = Fields.text(m, "sourceQueue");
      t.row("source", Fields.text(m, "sourceId") + (from == null ? "" : " in " + from));
      t.row("lineage", lineageLine(lineage));
    }
    if (m.hasNonNull("dedupeKey")) {
      t.row("dedupe key", Fields.text(m, "dedupeKey"));
    }
    if (m.hasNonNull("uniqueKey")) {
      t.row("unique key", Fields.text(m, "uniqueKey") + " (held until the first lease)");
    }
    if (m.hasNonNull("traceId")) {
      t.row("trace id", Fields.text(m, "traceId"));
    }
    t.row("headers", headers(m.get("headers")));
    t.row("payload", payload(m.get("payload")));
    return t;
  }

  /** The message's lineage (GET .../lineage), or null when the server has none to give. */
  private static JsonNode lineage(ApiClient client, String messageId) {
    try {
      return client.get("/v1/messages/" + ApiClient.segment(messageId) + "/lineage");
    } catch (CliException e) {
      return null; // an unknown id, a prefix, or an older server: nothing more to say
    }
  }

  private static String current(JsonNode lineage) {
    return lineage.path("current").asText();
  }

  /** "a (orders, gone) -> b (orders.dlq, DEAD)": each id of the story, its queue and state. */
  private static String lineageLine(JsonNode lineage) {
    if (lineage == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (JsonNode l : lineage.path("links")) {
      String state = Fields.text(l, "state");
      parts.add(
          Fields.text(l, "id")
              + " ("
              + Fields.text(l, "queue", "?")
              + ", "
              + (state == null ? "gone" : state)
              + ")");
    }
    return String.join(" -> ", parts);
  }

  private String payload(JsonNode payload) {
    if (payload == null || payload.isMissingNode()) {
      return null;
    }
    String text = payload.isNull() ? "null" : payload.toString();
    if (!verbose && text.length() > SHORT_PAYLOAD) {
      return text.substring(0, SHORT_PAYLOAD) + "... (" + text.length() + " chars: add --verbose)";
    }
    return text;
  }

  private static String headers(JsonNode headers) {
    if (headers == null || !headers.isObject() || headers.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) headers::fields) {
      parts.add(e.getKey() + "=" + e.getValue().asText());
    }
    return String.join(", ", parts);
  }

  private static String lastError(JsonNode error) {
    String display = Fields.text(error, "display");
    StringBuilder sb = new StringBuilder();
    if (display != null && !display.isBlank()) {
      sb.append(display);
    } else {
      sb.append(Fields.text(error, "reason", "?"));
      String message = Fields.text(error, "message");
      if (message != null) {
        sb.append(": ").append(message);
      }
    }
    List<String> details = new ArrayList<>();
    if (error.hasNonNull("category")) {
      details.add(Fields.text(error, "category").toLowerCase(java.util.Locale.ROOT));
    }
    if (display == null && error.hasNonNull("attempt")) {
      details.add(
          "attempt "
              + Fields.text(error, "attempt")
              + "/"
              + Fields.text(error, "maxAttempts", "?"));
    }
    if (error.hasNonNull("worker")) {
      details.add("by " + Fields.text(error, "worker"));
    }
    if (error.hasNonNull("at")) {
      details.add("at " + Fields.time(error, "at"));
    }
    if (!details.isEmpty()) {
      sb.append(" [").append(String.join(", ", details)).append(']');
    }
    return sb.toString();
  }
}
