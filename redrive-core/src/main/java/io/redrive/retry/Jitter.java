package io.redrive.retry;

import java.time.Duration;
import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * How a backoff's delay is spread so that messages failing together do not all come back at the
 * same instant: NONE keeps the delay {@code d} exact, FULL picks uniformly in {@code [0, d]}, EQUAL
 * picks {@code d/2} plus uniformly {@code [0, d/2]}. Applied to the backoff only; an explicit
 * {@code retryAfter} is never spread.
 */
public enum Jitter {
  /** The delay as the backoff computes it (the default). */
  NONE,
  /** Uniformly in {@code [0, d]}: the widest spread, some messages come back at once. */
  FULL,
  /** {@code d/2} plus uniformly {@code [0, d/2]}: spread, but never sooner than half the delay. */
  EQUAL;

  /**
   * The delay {@code delay} spread by this jitter, drawing from {@code random} (never drawn for
   * NONE). Millisecond precision, like every stored time.
   */
  public Duration apply(Duration delay, RandomGenerator random) {
    long millis = delay.toMillis();
    if (this == NONE || millis <= 0) {
      return delay;
    }
    if (this == FULL) {
      return Duration.ofMillis(random.nextLong(millis + 1));
    }
    long half = millis / 2;
    return Duration.ofMillis(millis - half + random.nextLong(half + 1));
  }

  /** Reads a jitter by name, any case; the error names {@code option} and the value. */
  public static Jitter parse(String option, String value) {
    if (value != null) {
      try {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        // the message below names the option
      }
    }
    throw new IllegalArgumentException(option + ": must be one of NONE, FULL, EQUAL, was " + value);
  }
}
