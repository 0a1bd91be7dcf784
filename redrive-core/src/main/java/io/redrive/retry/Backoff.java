package io.redrive.retry;

import java.time.Duration;

/**
 * How long a message waits before its next delivery after a failed attempt. Implementations are
 * immutable values, safe to share between threads.
 */
public sealed interface Backoff permits ExponentialBackoff, FixedBackoff {

  /**
   * The delay after attempt number {@code attempt} (1-based) failed.
   *
   * @throws IllegalArgumentException if {@code attempt < 1}
   */
  Duration delayAfter(int attempt);

  /** The default: 1 min after the first failed attempt, doubling, capped at 1 h, no jitter. */
  static Backoff defaultBackoff() {
    return ExponentialBackoff.DEFAULT;
  }
}
