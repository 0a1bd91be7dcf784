package io.redrive.jdbc;

import java.time.Instant;
import java.util.Map;

/**
 * The throughput counts this node's committed work added and not yet written (docs/engine.md,
 * "Throughput counters"): added after each commit, written every {@link PendingCounts#INTERVAL} in
 * one transaction, and before every read of the counters on this node.
 *
 * <p>Implementation notes. Writing the counters inside each transaction cost the hottest calls a
 * statement each (a single enqueue: three statements instead of two) and made concurrent settles of
 * one queue wait on the same counter rows. Here they cost an addition in memory, written behind by
 * {@link PendingCounts} (what a node had not written when it died is lost). Thread-safe.
 */
final class PendingThroughput implements AutoCloseable {
  /** A counter row without its slot: one queue's counts of one minute. */
  record Key(String queue, long minute) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int byQueue = queue.compareTo(o.queue);
      return byQueue != 0 ? byQueue : Long.compare(minute, o.minute);
    }
  }

  private final Transactions tx;
  private final PendingCounts<Key> counts;

  PendingThroughput(Transactions tx, ThroughputRows rows) {
    this.tx = tx;
    this.counts = new PendingCounts<>(tx, "throughput counters", rows::add);
  }

  /** Adds the counts of a committed write, made at {@code now} (the store clock). */
  void add(Tally tally, Instant now) {
    if (tally.isEmpty()) {
      return;
    }
    long minute = ThroughputRows.minuteOf(now);
    for (Map.Entry<String, long[]> e : tally.byQueue().entrySet()) {
      counts.add(new Key(e.getKey(), minute), e.getValue());
    }
  }

  /**
   * Writes every pending count in one transaction. On failure the counts stay pending for the next
   * write and the failure is thrown.
   */
  void write() {
    counts.write();
  }

  /**
   * Runs {@code deletion} of a queue's counters with its pending counts dropped and no write under
   * way, so that no count of the deleted queue is written after it.
   */
  <T> T forgetting(String queue, Transactions.Work<T> deletion) {
    return counts.forgetting(
        k -> k.queue().equals(queue), () -> tx.write("delete queue " + queue, deletion));
  }

  /** Writes what is pending (once, best effort) and stops the writing thread. */
  @Override
  public void close() {
    counts.close();
  }
}
