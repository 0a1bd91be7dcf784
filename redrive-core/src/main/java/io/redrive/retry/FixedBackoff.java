package io.redrive.retry;

import io.redrive.time.DurationText;
import java.time.Duration;

/**
 * The same cooldown after every failed attempt ({@code retry = { attempts, cooldown }}), spread by
 * {@code jitter} (null reads as {@link Jitter#NONE}).
 */
public record FixedBackoff(Duration cooldown, Jitter jitter) implements Backoff {
  /** A fixed backoff without jitter. */
  public FixedBackoff(Duration cooldown) {
    this(cooldown, Jitter.NONE);
  }

  public FixedBackoff {
    jitter = jitter == null ? Jitter.NONE : jitter;
    if (cooldown == null || cooldown.isNegative()) {
      throw new IllegalArgumentException(
          "retry.cooldown: must be zero or positive, was " + DurationText.format(cooldown));
    }
  }

  @Override
  public FixedBackoff withJitter(Jitter value) {
    return new FixedBackoff(cooldown, value);
  }

  @Override
  public Duration delayAfter(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt: must be at least 1, was " + attempt);
    }
    return cooldown;
  }
}
