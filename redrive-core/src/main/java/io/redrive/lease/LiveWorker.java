package io.redrive.lease;

import java.time.Instant;
import java.util.Set;

/**
 * A worker that leased from a queue lately, and the types its leases named: what the store
 * remembers of the lease calls themselves, whether or not they took anything (docs/engine.md, "Live
 * workers and unserved types").
 *
 * @param worker the worker name given when leasing
 * @param queue the queue it leased from
 * @param types the types its leases named, sorted; empty when it leased every type
 * @param lastLeaseAt its latest recorded lease call (recorded at most every {@link
 *     #RECORD_INTERVAL} per worker, queue and types, so up to that much older than the latest call)
 */
public record LiveWorker(String worker, String queue, Set<String> types, Instant lastLeaseAt) {
  /** How often one process records the lease calls of one worker, queue and set of types. */
  public static final java.time.Duration RECORD_INTERVAL = java.time.Duration.ofSeconds(10);

  public LiveWorker {
    types = java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(types));
  }

  /** Whether this worker's leases take messages of {@code type} (an untyped lease takes all). */
  public boolean takes(String type) {
    return types.isEmpty() || types.contains(type);
  }

  /** Whether this worker's leases name {@code type} itself (an untyped lease does not). */
  public boolean names(String type) {
    return types.contains(type);
  }
}
