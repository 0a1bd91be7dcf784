package io.redrive.retry;

import io.redrive.time.DurationText;
import java.time.Duration;

/** The same cooldown after every failed attempt ({@code retry = { attempts, cooldown }}). */
public record FixedBackoff(Duration cooldown) implements Backoff {
  public FixedBackoff {
    if (cooldown == null || cooldown.isNegative()) {
      throw new IllegalArgumentException(
          "retry.cooldown: must be zero or positive, was " + DurationText.format(cooldown));
    }
  }

  @Override
  public Duration delayAfter(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt: must be at least 1, was " + attempt);
    }
    return cooldown;
  }
}
