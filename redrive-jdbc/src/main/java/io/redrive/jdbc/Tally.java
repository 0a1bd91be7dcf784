package io.redrive.jdbc;

import java.util.Map;
import java.util.TreeMap;

/**
 * The throughput counts one store call adds, by queue (docs/engine.md, "Throughput counters"). The
 * code that does the work counts here as it goes; after the commit {@link PendingThroughput} adds
 * the sums to the node's pending counts (inside an application's transaction, {@link
 * ThroughputRows#addInCallerTransaction} writes them as its last statement). Not thread-safe: one
 * per call.
 */
final class Tally {
  static final int ENQUEUED = 0;
  static final int COMPLETED = 1;
  static final int FAILED = 2;
  static final int DEAD = 3;

  /** Sorted, so that every transaction upserts its rows in the same key order. */
  private final Map<String, long[]> byQueue = new TreeMap<>();

  private Tally() {}

  /** An empty tally. */
  static Tally of() {
    return new Tally();
  }

  /** Adds every count of {@code other} (work of a transaction that committed inside this call). */
  void addAll(Tally other) {
    other.byQueue.forEach(
        (queue, n) -> {
          for (int i = 0; i < n.length; i++) {
            add(queue, i, n[i]);
          }
        });
  }

  void enqueued(String queue) {
    add(queue, ENQUEUED);
  }

  void completed(String queue) {
    add(queue, COMPLETED);
  }

  void failed(String queue) {
    add(queue, FAILED);
  }

  void dead(String queue) {
    add(queue, DEAD);
  }

  void add(String queue, int counter, long n) {
    if (n != 0) {
      byQueue.computeIfAbsent(queue, q -> new long[4])[counter] += n;
    }
  }

  private void add(String queue, int counter) {
    add(queue, counter, 1);
  }

  boolean isEmpty() {
    return byQueue.isEmpty();
  }

  /** The counts by queue, in queue order: enqueued, completed, failed, dead. */
  Map<String, long[]> byQueue() {
    return byQueue;
  }
}
