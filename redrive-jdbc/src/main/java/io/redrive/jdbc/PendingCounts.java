package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts added in memory after a commit and written behind, every {@link #INTERVAL} in one
 * transaction of their own: the throughput counters ({@link PendingThroughput}) and the objectives'
 * minutes ({@link ObjectiveCounts}) both keep theirs here, by a key of a row and its minute.
 *
 * <p>Implementation notes. What a node had not written when it died is lost (at most one interval's
 * counts), and a write whose commit outcome is unknown is not counted. A failed write keeps its
 * counts for the next one and logs once until a write succeeds. The writing thread exists only
 * while counts wait, so an idle store holds no thread. Counts are sorted by key, so that every
 * write takes its rows in one order and two writers cannot deadlock. Thread-safe.
 *
 * @param <K> the key of a counter row without its slot
 */
final class PendingCounts<K extends Comparable<K>> implements AutoCloseable {
  /** How long counts wait in memory at most while the database answers. */
  static final Duration INTERVAL = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(PendingCounts.class);

  /** Writes counts to their rows, in the transaction given. */
  interface Rows<K> {
    void add(Connection c, Map<K, long[]> counts) throws SQLException;
  }

  private final Transactions tx;
  private final Rows<K> rows;

  /** What the counts are, in the write's name, the thread's and the log lines. */
  private final String what;

  /** Guarded by {@code this}. */
  private TreeMap<K, long[]> counts = new TreeMap<>();

  /** Held while a write is under way, so that writes and a deletion never interleave. */
  private final Object writing = new Object();

  private Thread writer;
  private boolean closed;
  private boolean warned;

  PendingCounts(Transactions tx, String what, Rows<K> rows) {
    this.tx = tx;
    this.what = what;
    this.rows = rows;
  }

  /** Adds {@code n} to the counts of {@code key} and makes sure they will be written. */
  synchronized void add(K key, long[] n) {
    merge(counts, key, n);
    if (writer == null && !closed) {
      writer = new Thread(this::writeWhileCounting, "redrive-" + what.replace(' ', '-'));
      writer.setDaemon(true);
      writer.start();
    }
  }

  private static <K> void merge(TreeMap<K, long[]> into, K key, long[] n) {
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
      TreeMap<K, long[]> taken;
      synchronized (this) {
        if (counts.isEmpty()) {
          return;
        }
        taken = counts;
        counts = new TreeMap<>();
      }
      try {
        tx.write(
            "write " + what,
            c -> {
              rows.add(c, taken);
              return null;
            });
      } catch (RuntimeException e) {
        synchronized (this) {
          taken.forEach((key, n) -> merge(counts, key, n));
        }
        throw e;
      }
    }
  }

  /**
   * Runs {@code deletion} with the pending counts of the keys {@code dropped} selects dropped and
   * no write under way, so that none of them is written after it.
   */
  <T> T forgetting(Predicate<K> dropped, Supplier<T> deletion) {
    synchronized (writing) {
      synchronized (this) {
        counts.keySet().removeIf(dropped);
      }
      return deletion.get();
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
          LOG.warn("could not write {}; kept for the next try", what, e);
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
      LOG.warn("{} not written at close were lost", what, e);
    }
  }
}
