package io.redrive.store;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * Input of {@link Store#leaseReady}; a null {@code leaseTimeout} means the queue's. {@code batch}
 * names the messages this call leases (their {@code lease_batch}), chosen by the caller so that it
 * can give them back with {@link Store#releaseUndelivered} when the lease's answer is lost.
 */
public record LeaseParams(
    String queue, String worker, int max, Duration leaseTimeout, Instant now, String batch) {

  public LeaseParams {
    if (batch == null || batch.isBlank()) {
      throw new IllegalArgumentException("batch: is required, was " + batch);
    }
  }

  /** A lease with a fresh random batch id. */
  public LeaseParams(String queue, String worker, int max, Duration leaseTimeout, Instant now) {
    this(queue, worker, max, leaseTimeout, now, UUID.randomUUID().toString());
  }
}
