package io.redrive.whatif;

import io.redrive.retry.Backoff;

/**
 * A retry policy to try on recorded stories: the parts of a {@code QueuePolicy} that decide whether
 * and when a failed message is delivered again.
 *
 * @param maxAttempts deliveries at most, 1–10 000
 * @param backoff the delay after each failed attempt
 * @param maxCrashes the crash-loop breaker: lease expiries on this many distinct workers kill the
 *     message; 0 turns it off
 */
public record RetryCandidate(int maxAttempts, Backoff backoff, int maxCrashes) {
  /** Validates every field. */
  public RetryCandidate {
    if (maxAttempts < 1 || maxAttempts > 10_000) {
      throw new IllegalArgumentException(
          "maxAttempts: must be between 1 and 10000, was " + maxAttempts);
    }
    if (backoff == null) {
      throw new IllegalArgumentException("backoff: must not be null");
    }
    if (maxCrashes < 0) {
      throw new IllegalArgumentException("maxCrashes: must be 0 (off) or more, was " + maxCrashes);
    }
  }
}
