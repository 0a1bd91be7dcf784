package io.redrive.retry;

import java.time.Duration;
import java.util.random.RandomGenerator;

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

  /** How the delay is spread ({@link Jitter#NONE}: exact). */
  Jitter jitter();

  /** This backoff with {@code value} as its jitter. */
  Backoff withJitter(Jitter value);

  /**
   * The delay after attempt {@code attempt} failed, spread by this backoff's {@link #jitter()}
   * drawing from {@code random}: what a failed attempt waits. {@link #delayAfter(int)} is the
   * nominal delay (the upper bound).
   */
  default Duration jitteredDelayAfter(int attempt, RandomGenerator random) {
    return jitter().apply(delayAfter(attempt), random);
  }

  /** The default: 1 min after the first failed attempt, doubling, capped at 1 h, no jitter. */
  static Backoff defaultBackoff() {
    return ExponentialBackoff.DEFAULT;
  }
}
