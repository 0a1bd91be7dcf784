package io.redrive.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A message's history as a timeline: one line per entry, oldest first, with its time (settled, else
 * leased), attempt, outcome, worker, the failure's reason and message, and notes (how long the
 * attempt ran, retryable or not, an operator's note).
 */
public final class Timeline {
  private Timeline() {}

  /**
   * The timeline of {@code history} (the API's {@code history} array), or a line saying it is
   * empty.
   */
  public static String render(JsonNode history) {
    if (history == null || !history.isArray() || history.isEmpty()) {
      return "  (no attempts yet)\n";
    }
    Table table = Table.withoutHeader(6).maxWidth(4, 100);
    for (JsonNode entry : history) {
      String at = Fields.text(entry, "settledAt");
      if (at == null) {
        at = Fields.text(entry, "leasedAt");
      }
      table.row(
          "  " + Fields.time(at),
          "#" + Fields.text(entry, "attempt", "?"),
          Fields.text(entry, "outcome", "?"),
          Fields.text(entry, "worker", "-"),
          failure(entry.get("failure")),
          notes(entry));
    }
    return table.render();
  }

  private static String failure(JsonNode failure) {
    if (failure == null || failure.isNull()) {
      return "";
    }
    String reason = Fields.text(failure, "reason", "?");
    String message = Fields.text(failure, "message");
    return message == null || message.isBlank() ? reason : reason + ": " + message;
  }

  private static String notes(JsonNode entry) {
    StringBuilder sb = new StringBuilder();
    String ran = ran(Fields.text(entry, "leasedAt"), Fields.text(entry, "settledAt"));
    if (ran != null) {
      sb.append("ran ").append(ran);
    }
    JsonNode failure = entry.get("failure");
    if (failure != null && failure.has("retryable") && !failure.get("retryable").asBoolean(true)) {
      append(sb, "not retryable");
    }
    String note = Fields.text(entry, "note");
    if (note != null && !note.isBlank()) {
      append(sb, note);
    }
    return sb.toString();
  }

  private static void append(StringBuilder sb, String text) {
    if (sb.length() > 0) {
      sb.append("; ");
    }
    sb.append(text);
  }

  private static String ran(String leasedAt, String settledAt) {
    if (leasedAt == null || settledAt == null) {
      return null;
    }
    try {
      Duration d = Duration.between(Instant.parse(leasedAt), Instant.parse(settledAt));
      if (d.isNegative()) {
        return null;
      }
      return io.redrive.time.DurationText.formatApproximate(d);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
