package io.redrive.cli.command;

import io.redrive.cli.client.CliException;
import io.redrive.time.DurationText;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Reads time flags: an ISO-8601 instant, or a duration meaning that long ago ({@code 2h}). */
final class Times {
  private Times() {}

  static String instant(String flag, String value) {
    if (value == null) {
      return null;
    }
    try {
      return Instant.parse(value.trim()).toString();
    } catch (DateTimeParseException e) {
      try {
        return Instant.now().minus(DurationText.parse(flag, value)).toString();
      } catch (IllegalArgumentException notDuration) {
        throw CliException.usage(
            flag
                + ": expected an instant (2030-01-01T00:00:00Z) or a duration ago (2h), was \""
                + value
                + "\"");
      }
    }
  }
}
