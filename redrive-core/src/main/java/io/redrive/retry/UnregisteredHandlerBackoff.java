package io.redrive.retry;

import java.time.Duration;

/**
 * The delay before a message whose type no worker here handles is offered again: {@code base ×
 * 2^min(attempt-1, maxExponent)}, at most {@code max} (defaults 1 s, 6, 60 s). Used by workers
 * during rolling deployments.
 */
public record UnregisteredHandlerBackoff(Duration base, int maxExponent, Duration max) {
  /** 1 s × 2^(attempt−1), exponent capped at 6, at most 60 s. */
  public static final UnregisteredHandlerBackoff DEFAULT =
      new UnregisteredHandlerBackoff(Duration.ofSeconds(1), 6, Duration.ofSeconds(60));

  public UnregisteredHandlerBackoff {
    if (base == null || base.isNegative() || base.isZero()) {
      throw new IllegalArgumentException("unregisteredBackoff.base: must be positive, was " + base);
    }
    if (maxExponent < 0 || maxExponent > 30) {
      throw new IllegalArgumentException(
          "unregisteredBackoff.maxExponent: must be 0..30, was " + maxExponent);
    }
    if (max == null || max.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "unregisteredBackoff.max: must be at least the base, was " + max);
    }
  }

  /** The delay after delivery number {@code attempt} (1-based) found no handler. */
  public Duration delayAfter(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt: must be at least 1, was " + attempt);
    }
    int exponent = Math.min(attempt - 1, maxExponent);
    Duration d = base.multipliedBy(1L << exponent);
    return d.compareTo(max) > 0 ? max : d;
  }
}
