package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.output.Table;

/** How schedules print: a list with next and last fire times, and one schedule's fields. */
final class ScheduleView {
  private ScheduleView() {}

  static Table list(JsonNode schedules) {
    Table table = Table.of("NAME", "WHEN", "TARGET", "PAUSED", "NEXT DUE", "LAST FIRED");
    for (JsonNode s : schedules) {
      table.row(
          s.path("name").asText(),
          when(s),
          target(s),
          s.path("paused").asBoolean() ? "yes" : "no",
          text(s, "nextDueAt"),
          text(s, "lastFiredAt"));
    }
    return table;
  }

  static Table one(JsonNode s) {
    Table table =
        Table.withoutHeader(2)
            .row("name", s.path("name").asText())
            .row("when", when(s))
            .row("target", target(s));
    // What it produces, as given: only the fields the schedule sets.
    for (String[] field : PRODUCES) {
      JsonNode v = s.get(field[0]);
      if (v != null && !v.isNull() && !(v.isObject() && v.isEmpty())) {
        table.row(field[1], v.isValueNode() ? v.asText() : v.toString());
      }
    }
    return table
        .row("jitter", text(s, "jitter"))
        .row("catch-up", text(s, "catchUp"))
        .row("paused", s.path("paused").asBoolean() ? "yes" : "no")
        .row("next due", text(s, "nextDueAt"))
        .row("last due", text(s, "lastDueAt"))
        .row("last fired", text(s, "lastFiredAt"))
        .row("skipped", s.path("skipped").asText());
  }

  private static final String[][] PRODUCES = {
    {"payload", "payload"},
    {"headers", "headers"},
    {"stream", "stream"},
    {"expireAfter", "expire after"},
    {"priority", "priority"},
    {"limitKey", "limit key"},
    {"input", "input"},
    {"version", "version"}
  };

  private static String when(JsonNode s) {
    return s.hasNonNull("cron")
        ? "cron " + s.get("cron").asText() + " (" + s.path("zone").asText() + ")"
        : "every " + s.path("every").asText();
  }

  private static String target(JsonNode s) {
    return s.hasNonNull("workflow")
        ? "workflow " + s.get("workflow").asText()
        : s.path("queue").asText() + " / " + s.path("type").asText();
  }

  private static String text(JsonNode s, String field) {
    return s.hasNonNull(field) ? s.get(field).asText() : "-";
  }
}
