package io.redrive.jdbc;

import java.util.Map;
import java.util.TreeMap;

/**
 * The throughput counts one transaction adds, by queue (docs/engine.md, "Throughput counters"). The
 * code that does the work counts here as it goes; {@link ThroughputRows#flush} writes the sums as
 * the transaction's last statement, one upsert per queue in queue order. Not thread-safe: one per
 * transaction.
 */
final class Tally {
  static final int ENQUEUED = 0;
  static final int COMPLETED = 1;
  static final int FAILED = 2;
  static final int DEAD = 3;

  /** Sorted, so that every transaction upserts its rows in the same key order. */
  private final Map<String, long[]> byQueue = new TreeMap<>();

  private final boolean statementAlone;

  private Tally(boolean statementAlone) {
    this.statementAlone = statementAlone;
  }

  /** The tally of a transaction. */
  static Tally of() {
    return new Tally(false);
  }

  /**
   * The tally of work whose write is one statement committed on its own ({@link
   * Transactions#writeAlone}): the statement must count what it does itself, in the same commit.
   */
  static Tally alone() {
    return new Tally(true);
  }

  /** True when counts belong in the one statement that does the work (see {@link #alone}). */
  boolean statementAlone() {
    return statementAlone;
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
