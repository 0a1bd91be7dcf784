package io.redrive.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The throughput counts this node's committed work added and not yet written (docs/engine.md,
 * "Throughput counters"): added after each commit, written every {@link #INTERVAL} in one
 * transaction, and before every read of the counters on this node.
 *
 * <p>Implementation notes. Writing the counters inside each transaction cost the hottest calls a
 * statement each (a single enqueue: three statements instead of two) and made concurrent settles of
 * one queue wait on the same counter rows. Here they cost an addition in memory; what a node had
 * not written when it died is lost (at most one interval's counts), and a write whose commit
 * outcome is unknown is not counted. A failed write keeps its counts for the next one. The writing
 * thread exists only while counts wait, so an idle store holds no thread. Thread-safe.
 */
final class PendingThroughput implements AutoCloseable {
  /** How long counts wait in memory at most while the database answers. */
  static final Duration INTERVAL = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(PendingThroughput.class);

  /** A counter row without its slot: one queue's counts of one minute. */
  record Key(String queue, long minute) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int byQueue = queue.compareTo(o.queue);
      return byQueue != 0 ? byQueue : Long.compare(minute, o.minute);
    }
  }

  private final Transactions tx;
  private final ThroughputRows rows;

  /** Guarded by {@code this}; sorted, so that every write takes its rows in one key order. */
  private TreeMap<Key, long[]> counts = new TreeMap<>();

  /** Held while a write is under way, so that writes and a queue's deletion never interleave. */
  private final Object writing = new Object();

  private Thread writer;
  private boolean closed;
  private boolean warned;

  PendingThroughput(Transactions tx, ThroughputRows rows) {
    this.tx = tx;
    this.rows = rows;
  }

  /** Adds the counts of a committed write, made at {@code now} (the store clock). */
  void add(Tally tally, Instant now) {
    if (tally.isEmpty()) {
      return;
    }
    long minute = ThroughputRows.minuteOf(now);
    synchronized (this) {
      merge(counts, tally.byQueue(), minute);
      if (writer == null && !closed) {
        writer = new Thread(this::writeWhileCounting, "redrive-throughput");
        writer.setDaemon(true);
        writer.start();
      }
    }
  }

  private static void merge(TreeMap<Key, long[]> into, Map<String, long[]> byQueue, long minute) {
    for (Map.Entry<String, long[]> e : byQueue.entrySet()) {
      add(into, new Key(e.getKey(), minute), e.getValue());
    }
  }

  private static void add(TreeMap<Key, long[]> into, Key key, long[] n) {
    long[] sum = into.computeIfAbsent(key, k -> new long[n.length]);
    for (int i = 0; i < n.length; i++) {
      sum[i] += n[i];
    }
  }

  /**
   * Writes every pending count in one transaction. On failure the counts stay pending for the next
   * write and the failure is thrown.
   */
  void write() {
    synchronized (writing) {
      TreeMap<Key, long[]> taken;
      synchronized (this) {
        if (counts.isEmpty()) {
          return;
        }
        taken = counts;
        counts = new TreeMap<>();
      }
      try {
        tx.write(
            "write throughput counters",
            c -> {
              rows.add(c, taken);
              return null;
            });
      } catch (RuntimeException e) {
        synchronized (this) {
          taken.forEach((key, n) -> add(counts, key, n));
        }
        throw e;
      }
    }
  }

  /**
   * Runs {@code deletion} of a queue's counters with its pending counts dropped and no write under
   * way, so that no count of the deleted queue is written after it.
   */
  <T> T forgetting(String queue, Transactions.Work<T> deletion) {
    synchronized (writing) {
      synchronized (this) {
        counts.keySet().removeIf(k -> k.queue().equals(queue));
      }
      return tx.write("delete queue " + queue, deletion);
    }
  }

  private void writeWhileCounting() {
    while (true) {
      try {
        Thread.sleep(INTERVAL.toMillis());
      } catch (InterruptedException e) {
        // close() wakes the thread early; it writes what is pending and ends below
      }
      try {
        write();
        warned = false;
      } catch (RuntimeException e) {
        if (!warned) {
          LOG.warn("could not write throughput counters; kept for the next try", e);
          warned = true;
        }
      }
      synchronized (this) {
        if (counts.isEmpty() || closed) {
          writer = null;
          return;
        }
      }
    }
  }

  /** Writes what is pending (once, best effort) and stops the writing thread. */
  @Override
  public void close() {
    Thread running;
    synchronized (this) {
      closed = true;
      running = writer;
    }
    if (running != null) {
      running.interrupt();
    }
    try {
      write();
    } catch (RuntimeException e) {
      LOG.warn("throughput counters not written at close were lost", e);
    }
  }
}
