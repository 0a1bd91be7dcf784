package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Input of {@link Store#completeAllIfLeased}; {@code completionWindow} as in {@link
 * CompleteParams}.
 */
public record CompleteAllParams(List<LeaseToken> tokens, Instant now, Duration completionWindow) {

  /** Completions the store does not remember. */
  public CompleteAllParams(List<LeaseToken> tokens, Instant now) {
    this(tokens, now, Duration.ZERO);
  }
}
