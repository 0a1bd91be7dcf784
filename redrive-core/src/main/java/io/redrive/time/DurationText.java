package io.redrive.time;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations in the unit form used by every Redrive surface: {@code 500ms}, {@code
 * 30s}, {@code 5m}, {@code 2h}, {@code 1d}. Thread-safe and stateless.
 */
public final class DurationText {
  private static final Pattern FORM = Pattern.compile("(\\d{1,12})\\s*([a-zA-Z]*)");

  private DurationText() {}

  /**
   * Parses {@code text} as a non-negative duration.
   *
   * @param field the name of the setting, used in the error message
   * @throws IllegalArgumentException naming the field and the text when it does not parse
   */
  public static Duration parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(field + ": duration is empty " + hint());
    }
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(field + ": invalid duration \"" + text + "\" " + hint());
    }
    long amount = Long.parseLong(m.group(1));
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    switch (unit) {
      case "ms":
        return Duration.ofMillis(amount);
      case "s":
        return Duration.ofSeconds(amount);
      case "m":
        return Duration.ofMinutes(amount);
      case "h":
        return Duration.ofHours(amount);
      case "d":
        return Duration.ofDays(amount);
      case "":
        throw new IllegalArgumentException(
            field + ": duration \"" + text + "\" has no unit " + hint());
      default:
        throw new IllegalArgumentException(
            field + ": unknown duration unit \"" + m.group(2) + "\" " + hint());
    }
  }

  /** Formats {@code d} in the largest unit that represents it exactly. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    if (ms % 86_400_000L == 0) {
      return ms / 86_400_000L + "d";
    }
    if (ms % 3_600_000L == 0) {
      return ms / 3_600_000L + "h";
    }
    if (ms % 60_000L == 0) {
      return ms / 60_000L + "m";
    }
    if (ms % 1000L == 0) {
      return ms / 1000L + "s";
    }
    return ms + "ms";
  }

  private static String hint() {
    return "(use a whole number with a unit: 500ms, 30s, 5m, 2h, 1d)";
  }
}
