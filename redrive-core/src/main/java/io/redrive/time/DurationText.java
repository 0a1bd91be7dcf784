package io.redrive.time;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations as people write them, on every Redrive surface: one unit ({@code
 * 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}) or several, largest first ({@code
 * 1m30s}, {@code 2h30m}, {@code 1d2h}, {@code 1m4s555ms}). Thread-safe and stateless.
 *
 * <p>{@link #format} is exact, so what it writes parses back to the same duration: whole units from
 * days down to milliseconds, largest first, zero parts left out ({@code 64555ms} is written {@code
 * 1m4s555ms}; zero is {@code 0s}). Sub-millisecond parts are dropped.
 */
public final class DurationText {
  private static final Pattern PART = Pattern.compile("(\\d{1,12})\\s*([a-zA-Z]*)\\s*");
  private static final Pattern FORM = Pattern.compile("(?:\\d{1,12}\\s*[a-zA-Z]*\\s*)+");

  /** Units from largest to smallest, with their length in milliseconds. */
  private static final String[] UNITS = {"d", "h", "m", "s", "ms"};

  private static final long[] MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L};

  private DurationText() {}

  /**
   * Parses {@code text} as a non-negative duration: one or more whole numbers each followed by a
   * unit ({@code d h m s ms}), units largest first and each at most once ({@code 1h30m}).
   *
   * @param field the name of the setting, used in the error message
   * @throws IllegalArgumentException naming the field and the text when it does not parse
   */
  public static Duration parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(field + ": duration is empty " + hint());
    }
    String trimmed = text.trim();
    if (!FORM.matcher(trimmed).matches()) {
      throw new IllegalArgumentException(field + ": invalid duration \"" + text + "\" " + hint());
    }
    Matcher m = PART.matcher(trimmed);
    Duration total = Duration.ZERO;
    int previous = -1;
    while (m.find()) {
      long amount = Long.parseLong(m.group(1));
      String unit = m.group(2).toLowerCase(Locale.ROOT);
      if (unit.isEmpty()) {
        throw new IllegalArgumentException(
            field + ": duration \"" + text + "\" has no unit " + hint());
      }
      int index = unitIndex(unit);
      if (index < 0) {
        throw new IllegalArgumentException(
            field + ": unknown duration unit \"" + m.group(2) + "\" " + hint());
      }
      if (index <= previous) {
        throw new IllegalArgumentException(
            field
                + ": invalid duration \""
                + text
                + "\": write units largest first, each once "
                + hint());
      }
      previous = index;
      try {
        total = total.plus(Duration.ofMillis(Math.multiplyExact(amount, MILLIS[index])));
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(field + ": duration \"" + text + "\" is too long", e);
      }
    }
    return total;
  }

  /**
   * Formats {@code d} exactly in compound form, largest unit first, zero parts left out: {@code
   * 1d2h}, {@code 2h30m}, {@code 1m4s555ms}, {@code 0s}. A negative duration gets a leading {@code
   * -}.
   */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (ms < 0) {
      sb.append('-');
      ms = -ms;
    }
    for (int i = 0; i < UNITS.length; i++) {
      long amount = ms / MILLIS[i];
      if (amount > 0) {
        sb.append(amount).append(UNITS[i]);
        ms -= amount * MILLIS[i];
      }
    }
    return sb.toString();
  }

  /**
   * Formats {@code d} for people, in its two largest non-zero units, the rest truncated: {@code
   * 1m4s}, {@code 2h30m}, {@code 1d2h}, {@code 4s555ms}, {@code 0s}. Parses back to at most {@code
   * d}.
   */
  public static String formatApproximate(Duration d) {
    long ms = Math.abs(d.toMillis());
    for (int i = 0; i < UNITS.length - 1; i++) {
      if (ms >= MILLIS[i]) {
        long keep = ms - ms % MILLIS[i + 1];
        return format(Duration.ofMillis(d.isNegative() ? -keep : keep));
      }
    }
    return format(d);
  }

  private static int unitIndex(String unit) {
    for (int i = 0; i < UNITS.length; i++) {
      if (UNITS[i].equals(unit)) {
        return i;
      }
    }
    return -1;
  }

  private static String hint() {
    return "(use whole numbers with units, largest first: 500ms, 30s, 5m, 1m30s, 2h, 1d)";
  }
}
