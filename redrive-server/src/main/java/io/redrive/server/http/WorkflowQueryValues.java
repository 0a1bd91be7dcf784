package io.redrive.server.http;

import io.redrive.workflow.InstanceStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** The query parameters of the workflow endpoints, parsed; each error names its parameter. */
final class WorkflowQueryValues {
  private WorkflowQueryValues() {}

  static InstanceStatus status(String text) {
    for (InstanceStatus s : InstanceStatus.values()) {
      if (s.name().equalsIgnoreCase(text)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "status: unknown status \""
            + text
            + "\" (use pending, running, completed, failed or terminated)");
  }

  static String name(String field, String value) {
    if (value != null && (value.isBlank() || value.length() > 200)) {
      throw new IllegalArgumentException(field + ": 1 to 200 characters, was \"" + value + "\"");
    }
    return value;
  }

  static boolean bool(String field, String value) {
    if (value == null) {
      return false;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(field + ": true or false, was \"" + value + "\"");
    };
  }

  static Instant instant(String field, String value) {
    if (value == null) {
      return null;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          field + ": an ISO-8601 instant such as 2030-01-01T00:00:00Z, was \"" + value + "\"");
    }
  }

  static int limit(String value, int absent, int max) {
    return value == null ? absent : (int) limit("limit", value, 1, max);
  }

  static long limit(String field, String value, long min, long max) {
    long n;
    try {
      n = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(field + ": a whole number, was \"" + value + "\"");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(
          field + ": must be between " + min + " and " + max + ", was " + n);
    }
    return n;
  }

  static long cursor(String value) {
    if (!value.matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException("after: not a cursor this server gave, was " + value);
    }
    return Long.parseLong(value);
  }
}
