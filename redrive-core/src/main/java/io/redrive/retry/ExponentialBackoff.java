package io.redrive.retry;

import io.redrive.time.DurationText;
import java.time.Duration;

/**
 * Delay {@code initial × multiplier^(attempt-1)}, capped at {@code max}: the default 1 min, ×2, cap
 * 1 h gives 1, 2, 4, 8, 16, 32, 60, 60 … minutes; then spread by {@code jitter} (null reads as
 * {@link Jitter#NONE}).
 */
public record ExponentialBackoff(Duration initial, double multiplier, Duration max, Jitter jitter)
    implements Backoff {
  static final ExponentialBackoff DEFAULT =
      new ExponentialBackoff(Duration.ofMinutes(1), 2.0, Duration.ofHours(1));

  /** An exponential backoff without jitter. */
  public ExponentialBackoff(Duration initial, double multiplier, Duration max) {
    this(initial, multiplier, max, Jitter.NONE);
  }

  public ExponentialBackoff {
    jitter = jitter == null ? Jitter.NONE : jitter;
    if (initial == null || initial.isNegative()) {
      throw new IllegalArgumentException(
          "backoff.initial: must be zero or positive, was " + DurationText.format(initial));
    }
    if (max == null || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException(
          "backoff.max: must be at least backoff.initial ("
              + DurationText.format(initial)
              + "), was "
              + DurationText.format(max));
    }
    if (!(multiplier >= 1.0) || multiplier > 100.0) {
      throw new IllegalArgumentException(
          "backoff.multiplier: must be between 1 and 100, was " + multiplier);
    }
  }

  @Override
  public ExponentialBackoff withJitter(Jitter value) {
    return new ExponentialBackoff(initial, multiplier, max, value);
  }

  @Override
  public Duration delayAfter(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt: must be at least 1, was " + attempt);
    }
    double millis = initial.toMillis() * Math.pow(multiplier, attempt - 1);
    if (millis >= max.toMillis() || Double.isInfinite(millis)) {
      return max;
    }
    return Duration.ofMillis(Math.round(millis));
  }
}
