package io.redrive.lease;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A request to lease up to {@code max} ready messages of one queue, optionally only messages of
 * some types.
 *
 * @param queue the queue to lease from
 * @param worker the worker id recorded in the attempt history
 * @param max most messages to lease (1–1000)
 * @param leaseTimeout lease length, or null for the queue's {@code leaseTimeout}
 * @param types the message types to lease, at most {@link #MAX_TYPES}; empty (or null) leases every
 *     type. Messages of other types are neither delivered nor touched: their attempts, leases and
 *     deadlines are left to the workers that lease them. A worker that handles only some of a
 *     queue's types passes them here, so that it never takes a message it would have to give back
 */
public record LeaseRequest(
    String queue, String worker, int max, Duration leaseTimeout, Set<String> types) {
  /** Largest batch one lease call may take. */
  public static final int MAX_BATCH = 1000;

  /** Most types one lease call may filter by. */
  public static final int MAX_TYPES = 1000;

  /** Keeps {@code types} in the order given; null elements are left for validation to name. */
  public LeaseRequest {
    types =
        types == null || types.isEmpty()
            ? Set.of()
            : Collections.unmodifiableSet(new LinkedHashSet<>(types));
  }

  /** A lease of every type. */
  public LeaseRequest(String queue, String worker, int max, Duration leaseTimeout) {
    this(queue, worker, max, leaseTimeout, Set.of());
  }

  public static LeaseRequest of(String queue, String worker, int max) {
    return new LeaseRequest(queue, worker, max, null);
  }

  /** This request leasing only messages of {@code types} (empty: every type). */
  public LeaseRequest withTypes(Set<String> types) {
    return new LeaseRequest(queue, worker, max, leaseTimeout, types);
  }
}
