package io.redrive.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * Input of {@link Store#leaseReady}; a null {@code leaseTimeout} means the queue's. {@code batch}
 * names the messages this call leases (their {@code lease_batch}), chosen by the caller so that it
 * can give them back with {@link Store#releaseUndelivered} when the lease's answer is lost. A
 * non-empty {@code types} restricts the lease to messages of those types (validated by the engine:
 * non-blank, at most {@link io.redrive.lease.LeaseRequest#MAX_TYPES}); empty means every type.
 * {@code node} is the engine node that leases (its liveness row, {@link Store#beatNode}), or null:
 * being alive as it leases, it is a witness for the expiries it meets (docs/engine.md, "Crash
 * evidence").
 */
public record LeaseParams(
    String queue,
    String worker,
    int max,
    Duration leaseTimeout,
    Instant now,
    String batch,
    Set<String> types,
    String node) {

  public LeaseParams {
    if (batch == null || batch.isBlank()) {
      throw new IllegalArgumentException("batch: is required, was " + batch);
    }
    types = types == null ? Set.of() : Set.copyOf(types);
  }

  /** A lease from no engine node (a store-level caller). */
  public LeaseParams(
      String queue,
      String worker,
      int max,
      Duration leaseTimeout,
      Instant now,
      String batch,
      Set<String> types) {
    this(queue, worker, max, leaseTimeout, now, batch, types, null);
  }

  /** A lease of every type. */
  public LeaseParams(
      String queue, String worker, int max, Duration leaseTimeout, Instant now, String batch) {
    this(queue, worker, max, leaseTimeout, now, batch, Set.of());
  }

  /** A lease of every type with a fresh random batch id. */
  public LeaseParams(String queue, String worker, int max, Duration leaseTimeout, Instant now) {
    this(queue, worker, max, leaseTimeout, now, UUID.randomUUID().toString());
  }

  /** True when the lease takes only messages of {@link #types}. */
  public boolean filtersTypes() {
    return !types.isEmpty();
  }
}
