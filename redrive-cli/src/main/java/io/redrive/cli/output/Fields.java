package io.redrive.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Reads fields of the API's JSON for display: absent and null both read as null. */
public final class Fields {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Fields() {}

  /** The field as text (objects and arrays as compact JSON), or null. */
  public static String text(JsonNode node, String field) {
    JsonNode value = node == null ? null : node.get(field);
    if (value == null || value.isNull() || value.isMissingNode()) {
      return null;
    }
    return value.isValueNode() ? value.asText() : value.toString();
  }

  /** The field as text, or {@code fallback}. */
  public static String text(JsonNode node, String field, String fallback) {
    String value = text(node, field);
    return value == null ? fallback : value;
  }

  /** An ISO-8601 instant field as {@code 2030-01-01 12:00:00.000Z}, or null. */
  public static String time(JsonNode node, String field) {
    return time(text(node, field));
  }

  /** An ISO-8601 instant as {@code 2030-01-01 12:00:00.000Z}; unparsable text is kept as is. */
  public static String time(String iso) {
    if (iso == null) {
      return null;
    }
    try {
      return TIME.format(Instant.parse(iso));
    } catch (DateTimeParseException e) {
      return iso;
    }
  }

  /**
   * A queue's backoff object in the CLI's flag form: {@code exponential:1m:2:1h}, {@code
   * fixed:30s}, followed by {@code jitter FULL} when its delays are spread.
   */
  public static String backoff(JsonNode backoff) {
    if (backoff == null || backoff.isNull() || backoff.isMissingNode()) {
      return null;
    }
    String delays = delays(backoff);
    JsonNode jitter = backoff.get("jitter");
    return jitter == null || jitter.isNull() ? delays : delays + " jitter " + jitter.asText();
  }

  private static String delays(JsonNode backoff) {
    String kind = text(backoff, "kind", "?");
    if ("fixed".equals(kind)) {
      return "fixed:" + text(backoff, "cooldown", "?");
    }
    if ("exponential".equals(kind)) {
      String multiplier = text(backoff, "multiplier", "?");
      if (multiplier.endsWith(".0")) {
        multiplier = multiplier.substring(0, multiplier.length() - 2);
      }
      return "exponential:"
          + text(backoff, "initial", "?")
          + ":"
          + multiplier
          + ":"
          + text(backoff, "max", "?");
    }
    return backoff.toString();
  }

  /** A queue's dead-letter setting: {@code keep}, {@code discard} or {@code move -> orders.dlq}. */
  public static String deadLetter(JsonNode queue) {
    String mode = text(queue, "deadLetter", "keep");
    String target = text(queue, "deadLetterQueue");
    return target == null ? mode : "move -> " + target;
  }
}
