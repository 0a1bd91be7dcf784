package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;

/**
 * Input of {@link Store#completeIfLeased}.
 *
 * @param completionWindow how long the store remembers the completion (zero: not at all); within
 *     it, the same token completing again is answered as completed ({@code repeated})
 */
public record CompleteParams(
    LeaseToken token, long progress, Instant now, Duration completionWindow) {

  /** A completion the store does not remember. */
  public CompleteParams(LeaseToken token, long progress, Instant now) {
    this(token, progress, now, Duration.ZERO);
  }
}
