package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#releaseUndelivered}: the queue and {@link LeaseParams#batch()} of a lease
 * whose answer never reached the caller.
 */
public record ReleaseUndeliveredParams(String queue, String batch, Instant now) {

  public ReleaseUndeliveredParams {
    if (queue == null) {
      throw new IllegalArgumentException("queue: is required");
    }
    if (batch == null || batch.isBlank()) {
      throw new IllegalArgumentException("batch: is required, was " + batch);
    }
    if (now == null) {
      throw new IllegalArgumentException("now: is required");
    }
  }
}
