package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.client.ApiClient;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Output;
import io.redrive.cli.output.Table;
import java.time.Duration;
import java.time.Instant;

/** How the workflow commands print instances, failures and timelines. */
final class WorkflowView {
  private WorkflowView() {}

  /** The instance's summary rows, as {@code workflow show} and {@code start} print them. */
  static Table summary(JsonNode i) {
    Table t =
        Table.withoutHeader(2)
            .row("id", Fields.text(i, "id"))
            .row(
                "orchestration",
                Fields.text(i, "name") + "@" + Fields.text(i, "version", "(not pinned yet)"))
            .row("status", Fields.text(i, "status"))
            .row("execution", Fields.text(i, "execution"))
            .row("parent", Fields.text(i, "parent"))
            .row("created", Fields.time(i, "createdAt"))
            .row("updated", Fields.time(i, "updatedAt"))
            .row("completed", Fields.time(i, "completedAt"));
    if (i.hasNonNull("input")) {
      t.row("input", i.get("input").toString());
    }
    if (i.hasNonNull("output")) {
      t.row("output", i.get("output").toString());
    }
    if (i.hasNonNull("customStatus")) {
      t.row("custom status", i.get("customStatus").toString());
    }
    JsonNode waiting = i.get("waiting");
    if (waiting != null && !waiting.isNull()) {
      t.row("waiting", waiting(waiting));
    }
    JsonNode pending = i.get("pending");
    if (pending != null && !pending.isNull()) {
      String p = pending(pending);
      if (p != null) {
        t.row("pending", p);
      }
    }
    if (i.path("terminateRequested").asBoolean()) {
      t.row("terminate", "requested; the next turn ends it");
    }
    JsonNode history = i.get("history");
    if (history != null && !history.isNull()) {
      t.row(
          "history",
          Fields.text(history, "events") + " events, " + Fields.text(history, "bytes") + " bytes");
    }
    return t;
  }

  private static String waiting(JsonNode w) {
    StringBuilder sb = new StringBuilder(Fields.text(w, "reason", "?"));
    sb.append(" (attempt ").append(Fields.text(w, "attempt", "?"));
    if (w.hasNonNull("node")) {
      sb.append(", ").append(Fields.text(w, "node"));
    }
    if (w.hasNonNull("until")) {
      sb.append(", until ").append(Fields.time(w, "until"));
    }
    sb.append(')');
    if (w.hasNonNull("message")) {
      sb.append(": ").append(Fields.text(w, "message"));
    }
    return sb.toString();
  }

  private static String pending(JsonNode p) {
    StringBuilder sb = new StringBuilder();
    for (String field : new String[] {"activities", "timers", "events", "children"}) {
      int n = p.path(field).asInt();
      if (n > 0) {
        sb.append(sb.length() == 0 ? "" : ", ").append(n).append(' ').append(field);
      }
    }
    if (p.hasNonNull("nextTimerAt")) {
      sb.append(sb.length() == 0 ? "" : ", ")
          .append("next timer ")
          .append(Fields.time(p, "nextTimerAt"));
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  /** The failure's one line: its display, else reason and message. */
  static String failure(JsonNode f) {
    String display = Fields.text(f, "display");
    if (display != null && !display.isBlank()) {
      return display;
    }
    String message = Fields.text(f, "message");
    return Fields.text(f, "reason", "?") + (message == null ? "" : ": " + message);
  }

  /**
   * What {@code show} prints after {@code last attempt: } for a poison failure that carries one, or
   * null. A display that names the last attempt already ({@code ...; last attempt: REASON:
   * message}) gets where it ran: {@code turn try 2 on node-2 (build 1.4.0)}, {@code delivery 3 to
   * w-1}, from the timeline. An older display gets the attempt itself: {@code NONDETERMINISM …
   * (node-2, build 1.4.0)}.
   */
  static String lastAttempt(JsonNode f, JsonNode timeline) {
    JsonNode last = f.get("lastAttempt");
    if (last == null || last.isNull()) {
      return null;
    }
    String reason = Fields.text(last, "reason", "?");
    if (!Fields.text(f, "display", "").contains("last attempt: " + reason)) {
      String message = Fields.text(last, "message");
      return reason + (message == null ? "" : " " + message) + lastTry(timeline);
    }
    return "ACTIVITY".equals(Fields.text(f, "target"))
        ? delivery(timeline, f.path("activityId").asText(), last.path("attempt").asText())
        : turnTry(timeline);
  }

  /** {@code " (node-2, build 1.4.0)"} of the timeline's last failed turn try, or empty. */
  private static String lastTry(JsonNode entries) {
    JsonNode last = lastTurnTry(entries);
    if (last == null || !last.hasNonNull("node")) {
      return "";
    }
    String build = Fields.text(last, "build");
    return " (" + Fields.text(last, "node") + (build == null ? "" : ", build " + build) + ")";
  }

  /** {@code turn try 2 on node-2 (build 1.4.0)}: the timeline's last failed turn try, or null. */
  private static String turnTry(JsonNode entries) {
    JsonNode last = lastTurnTry(entries);
    if (last == null) {
      return null;
    }
    String build = Fields.text(last, "build");
    return "turn try "
        + Fields.text(last, "attempt", "?")
        + " on "
        + Fields.text(last, "node", "?")
        + (build == null ? "" : " (build " + build + ")");
  }

  private static JsonNode lastTurnTry(JsonNode entries) {
    JsonNode last = null;
    for (JsonNode e : entries) {
      if ("TURN_ATTEMPT".equals(Fields.text(e, "kind"))) {
        last = e;
      }
    }
    return last;
  }

  /**
   * {@code delivery 3 to w-1}: the activity delivery {@code attempt} of command {@code seq} on the
   * timeline, or null (a failure that came up from a child has its deliveries on the child's).
   */
  private static String delivery(JsonNode entries, String seq, String attempt) {
    String found = null;
    for (JsonNode e : entries) {
      if ("ACTIVITY_ATTEMPT".equals(Fields.text(e, "kind"))
          && seq.equals(Fields.text(e, "seq"))
          && attempt.equals(Fields.text(e, "attempt"))) {
        found =
            "delivery " + attempt + (e.hasNonNull("node") ? " to " + Fields.text(e, "node") : "");
      }
    }
    return found;
  }

  /** The timeline, one line per entry: time, what, and for a try its node and outcome. */
  static String timeline(JsonNode entries) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode e : entries) {
      sb.append("  ").append(Fields.time(e, "at")).append("  ");
      String kind = Fields.text(e, "kind", "?");
      switch (kind) {
        case "EVENT" -> {
          sb.append('#').append(Fields.text(e, "eventId", "?")).append(' ');
          sb.append(Fields.text(e, "event", "?"));
          if (e.hasNonNull("name")) {
            sb.append(' ').append(Fields.text(e, "name"));
          }
          if (e.hasNonNull("seq")) {
            sb.append(" (command ").append(Fields.text(e, "seq")).append(')');
          }
        }
        case "TURN_ATTEMPT" -> {
          sb.append("turn try ").append(Fields.text(e, "attempt", "?"));
          sb.append(" on ").append(Fields.text(e, "node", "?"));
          if (e.hasNonNull("build")) {
            sb.append(" (build ").append(Fields.text(e, "build")).append(')');
          }
          sb.append(": ").append(Fields.text(e, "outcome", "?"));
        }
        default -> {
          sb.append("activity ").append(Fields.text(e, "name", "?"));
          sb.append(" delivery ").append(Fields.text(e, "attempt", "?"));
          if (e.hasNonNull("node")) {
            sb.append(" to ").append(Fields.text(e, "node"));
          }
          sb.append(": ").append(Fields.text(e, "outcome", "?"));
        }
      }
      if (!"EVENT".equals(kind)) {
        if (e.hasNonNull("reason") && !Fields.text(e, "reason").equals(Fields.text(e, "outcome"))) {
          sb.append(" (").append(Fields.text(e, "reason")).append(')');
        }
        if (e.hasNonNull("message")) {
          sb.append(" — ").append(Fields.text(e, "message"));
        }
      }
      sb.append(System.lineSeparator());
    }
    return sb.toString();
  }

  /** Waits for the instance to end, in steps the server allows; returns it as it is then. */
  static JsonNode await(ApiClient client, String id, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    String path = "/v1/workflows/" + ApiClient.segment(id);
    while (true) {
      Duration left = Duration.between(Instant.now(), deadline);
      long step = Math.max(0, Math.min(left.toMillis(), STEP.toMillis()));
      JsonNode i = client.get(path, ApiClient.Query.of().add("wait", step + "ms"));
      if (ended(i) || left.toMillis() <= step) {
        return i;
      }
    }
  }

  /** Each long poll asks for at most this much (servers allow 30 s by default). */
  static final Duration STEP = Duration.ofSeconds(20);

  static boolean ended(JsonNode i) {
    String s = Fields.text(i, "status", "");
    return s.equals("COMPLETED") || s.equals("FAILED") || s.equals("TERMINATED");
  }

  /** Prints where a waited-for instance ended; 7 when it failed or was terminated. */
  static int reportEnd(JsonNode i, Output output) {
    String status = Fields.text(i, "status", "?");
    if (output.json()) {
      output.print(i);
    } else if (status.equals("COMPLETED")) {
      output.line(i.get("output") == null ? "null" : i.get("output").toString());
    } else if (ended(i)) {
      output.line(status + ": " + failure(i.get("failure")));
    } else {
      output.line(status + " (still running)");
    }
    if (status.equals("FAILED") || status.equals("TERMINATED")) {
      return ExitCode.WORKFLOW_FAILED.code();
    }
    return 0;
  }
}
