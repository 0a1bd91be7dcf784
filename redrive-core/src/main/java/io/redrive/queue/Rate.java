package io.redrive.queue;

import io.redrive.time.DurationText;
import java.time.Duration;

/**
 * At most {@code leases} leases per {@code period}: a token bucket holding up to {@code leases}
 * tokens, refilled evenly over {@code period}, one token per lease (so a full bucket allows a burst
 * of {@code leases}). Written {@code "100/1m"} in configuration, HTTP and the CLI.
 *
 * @param leases leases allowed per period (1–1 000 000)
 * @param period the period (1ms–1d)
 */
public record Rate(int leases, Duration period) {

  /** Most leases a rate may allow per period. */
  public static final int MAX_LEASES = 1_000_000;

  /** Longest period. */
  public static final Duration MAX_PERIOD = Duration.ofDays(1);

  public Rate {
    if (leases < 1 || leases > MAX_LEASES) {
      throw new IllegalArgumentException(
          "rate: leases per period must be between 1 and " + MAX_LEASES + ", was " + leases);
    }
    if (period == null) {
      throw new IllegalArgumentException("rate: a period is required");
    }
    if (period.toMillis() < 1 || period.compareTo(MAX_PERIOD) > 0) {
      throw new IllegalArgumentException(
          "rate: period must be between 1ms and 1d, was " + DurationText.format(period));
    }
  }

  /** {@code leases} per {@code period}. */
  public static Rate of(int leases, Duration period) {
    return new Rate(leases, period);
  }

  /**
   * Reads {@code "N/period"} (e.g. {@code "100/1m"}, {@code "10/1s"}); errors name {@code field}.
   */
  public static Rate parse(String field, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(field + ": is required (e.g. \"100/1m\")");
    }
    int slash = text.indexOf('/');
    if (slash <= 0 || slash == text.length() - 1) {
      throw new IllegalArgumentException(
          field + ": must be leases/period such as \"100/1m\", was \"" + text + "\"");
    }
    int leases;
    try {
      leases = Integer.parseInt(text.substring(0, slash).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          field + ": must be leases/period such as \"100/1m\", was \"" + text + "\"");
    }
    Duration period = DurationText.parse(field, text.substring(slash + 1).trim());
    try {
      return new Rate(leases, period);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage() + " (\"" + text + "\")");
    }
  }

  /** The {@code "N/period"} form {@link #parse} reads. */
  @Override
  public String toString() {
    return leases + "/" + DurationText.format(period);
  }
}
