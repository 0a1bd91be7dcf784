package io.redrive.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.cli.output.Fields;
import io.redrive.cli.output.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** How queues and their stats read in tables. */
final class QueueView {
  private QueueView() {}

  static Table list(JsonNode queues) {
    Table table =
        Table.of(
                "NAME",
                "PAUSED",
                "MAX ATTEMPTS",
                "LEASE",
                "BACKOFF",
                "EXPIRE AFTER",
                "DEAD LETTER",
                "STREAM POLICY")
            .alignRight(2);
    for (JsonNode q : queues) {
      table.row(
          Fields.text(q, "name"),
          q.path("paused").asBoolean() ? "yes" : "no",
          Fields.text(q, "maxAttempts"),
          Fields.text(q, "leaseTimeout"),
          Fields.backoff(q.get("backoff")),
          Fields.text(q, "expireAfter"),
          Fields.deadLetter(q),
          Fields.text(q, "streamPolicy"));
    }
    return table;
  }

  static Table policy(JsonNode q) {
    return Table.withoutHeader(2)
        .row("queue", Fields.text(q, "name"))
        .row("paused", q.path("paused").asBoolean() ? "yes" : "no")
        .row("max attempts", Fields.text(q, "maxAttempts"))
        .row("lease timeout", Fields.text(q, "leaseTimeout"))
        .row("backoff", Fields.backoff(q.get("backoff")))
        .row("expire after", Fields.text(q, "expireAfter"))
        .row("dead letter", Fields.deadLetter(q))
        .row("stream policy", Fields.text(q, "streamPolicy"))
        .row("max crashes", maxCrashes(q))
        .row("completed", completedRetention(q))
        .row("priority", priority(q))
        .row("limits", limits(q.get("limits")))
        .row("circuit", circuit(q.get("circuit")))
        .row("created", Fields.time(q, "createdAt"))
        .row("updated", Fields.time(q, "updatedAt"));
  }

  /** The circuit breaker in one line, e.g. {@code 5 failures in 30s, probe 10s, waves 1,5,25}. */
  static String circuit(JsonNode c) {
    if (c == null || c.isNull()) {
      return "off";
    }
    StringBuilder waves = new StringBuilder();
    for (JsonNode w : c.path("waves")) {
      waves.append(waves.length() == 0 ? "" : ",").append(w.asText());
    }
    return Fields.text(c, "failures")
        + " failures in "
        + Fields.text(c, "window")
        + ", probe "
        + Fields.text(c, "probeInterval")
        + ", waves "
        + waves
        + (c.path("learn").asBoolean() ? ", learns dependencies" : "");
  }

  /** The default priority and what a step of priority is worth: {@code default 0, aging 1m}. */
  private static String priority(JsonNode q) {
    return "default "
        + Fields.text(q, "defaultPriority", "0")
        + ", aging "
        + Fields.text(q, "priorityAging", "1m");
  }

  /** The flow limits in one line, e.g. {@code max running 10, per key 2, rate 100/1m}. */
  static String limits(JsonNode l) {
    if (l == null || l.isNull()) {
      return "none";
    }
    java.util.List<String> parts = new java.util.ArrayList<>();
    if (l.hasNonNull("maxRunning")) {
      parts.add("max running " + l.get("maxRunning").asText());
    }
    if (l.hasNonNull("maxRunningPerKey")) {
      parts.add("per key " + l.get("maxRunningPerKey").asText());
    }
    if (l.hasNonNull("rate")) {
      parts.add("rate " + l.get("rate").asText());
    }
    if (l.hasNonNull("ratePerKey")) {
      parts.add("rate per key " + l.get("ratePerKey").asText());
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  /** The crash-loop breaker: {@code off} for 0, else the number of distinct crashed workers. */
  private static String maxCrashes(JsonNode q) {
    JsonNode n = q.get("maxCrashes");
    if (n != null && n.isInt() && n.asInt() == 0) {
      return "off";
    }
    return Fields.text(q, "maxCrashes");
  }

  /**
   * How long completed messages keep their story: {@code kept 1d} (the queue's own retention),
   * {@code not kept (0s)}, or {@code engine default} when the queue follows the engine's.
   */
  static String completedRetention(JsonNode q) {
    String own = Fields.text(q, "completedRetention");
    if (own == null || own.equals(Converters.RetentionValue.DEFAULT)) {
      return "engine default";
    }
    return own.equals("0s") ? "not kept (0s)" : "kept " + own;
  }

  static Table stats(JsonNode s) {
    return Table.withoutHeader(2)
        .row("ready", Fields.text(s, "ready", "0"))
        .row("scheduled", Fields.text(s, "scheduled", "0"))
        .row("leased", Fields.text(s, "leased", "0"))
        .row("lease expired", Fields.text(s, "leaseExpired", "0"))
        .row("dead", Fields.text(s, "dead", "0"))
        .row("total", Fields.text(s, "total", "0"))
        .row("by attempts", counts(s.get("attempts")))
        .row("dead reasons", counts(s.get("deadReasons")))
        .row("failure reasons", counts(s.get("failureReasons")))
        .row("next scheduled", Fields.time(s, "nextScheduledAt"))
        .row("latest scheduled", Fields.time(s, "latestScheduledAt"))
        .row("oldest ready age", Fields.text(s, "oldestReadyAge"));
  }

  static Table statsHeader() {
    return Table.of(
            "QUEUE",
            "READY",
            "SCHEDULED",
            "LEASED",
            "LEASE EXPIRED",
            "DEAD",
            "TOTAL",
            "OLDEST READY")
        .alignRight(1, 2, 3, 4, 5, 6);
  }

  static void statsRow(Table table, String queue, JsonNode s) {
    table.row(
        queue,
        Fields.text(s, "ready", "0"),
        Fields.text(s, "scheduled", "0"),
        Fields.text(s, "leased", "0"),
        Fields.text(s, "leaseExpired", "0"),
        Fields.text(s, "dead", "0"),
        Fields.text(s, "total", "0"),
        Fields.text(s, "oldestReadyAge"));
  }

  /** {@code {"POISON": 1, "EXPIRED": 2}} as {@code POISON 1, EXPIRED 2}; null when empty. */
  static String counts(JsonNode counts) {
    if (counts == null || !counts.isObject() || counts.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) counts::fields) {
      parts.add(e.getKey() + " " + e.getValue().asText());
    }
    return String.join(", ", parts);
  }
}
