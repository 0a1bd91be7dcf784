package io.redrive.queue;

import java.time.Instant;
import java.util.Objects;

/**
 * One minute of a queue's throughput (or of several queues, summed), as the dashboard charts it:
 * what happened in the minute, counted inside the transactions that did it and so right across
 * every node sharing the database, and the queue's depth as the first maintenance sweep of the
 * minute saw it. See docs/engine.md, "Throughput counters", for exactly what each counter counts.
 *
 * @param minute the start of the minute (UTC, whole minute)
 * @param enqueued messages enqueued (duplicates of a dedupe key not counted)
 * @param completed messages completed (a repeated complete not counted again)
 * @param failed attempts that ended in failure: a fail (retried or dead), an abandon that names a
 *     failure reason, and a lease found expired (LEASE_EXPIRED)
 * @param dead messages that died, for any reason (failure, POISON, EXPIRED), counted on the queue
 *     they died in even when moved to a dead-letter queue or discarded
 * @param depth the depth snapshot of the minute, or null when no sweep took one
 */
public record ThroughputPoint(
    Instant minute, long enqueued, long completed, long failed, long dead, Depth depth) {

  public ThroughputPoint {
    Objects.requireNonNull(minute, "minute");
  }

  /** A minute in which nothing was counted and no snapshot was taken. */
  public static ThroughputPoint empty(Instant minute) {
    return new ThroughputPoint(minute, 0, 0, 0, 0, null);
  }

  /**
   * Messages by state at the snapshot, as {@link QueueStats} counts them, except that a lease that
   * ran out unclaimed counts as ready (leasable again).
   *
   * @param ready messages that could be leased
   * @param scheduled ready messages whose visibility lay in the future
   * @param leased messages under a live lease
   * @param dead dead messages kept in the queue
   */
  public record Depth(long ready, long scheduled, long leased, long dead) {}
}
