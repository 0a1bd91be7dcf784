package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Writes that count their throughput (docs/engine.md, "Throughput counters"): the work adds what it
 * enqueues, completes, fails or kills to a {@link Tally}, which goes to the node's {@link
 * PendingThroughput} once the write committed; inside an application's transaction it is written as
 * that transaction's last statement instead, since only its commit can say whether it counts.
 * Thread-safe; entered by the store's calls.
 */
final class CountedWrites {
  /** Work that counts its throughput in a {@link Tally}. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection, Tally tally) throws SQLException;
  }

  private final Transactions tx;
  private final ThroughputRows throughput;
  private final PendingThroughput pending;

  CountedWrites(Transactions tx, ThroughputRows throughput, PendingThroughput pending) {
    this.tx = tx;
    this.throughput = throughput;
    this.pending = pending;
  }

  /** Runs {@code work} in a write transaction of its own. */
  <T> T write(String what, Instant now, Work<T> work) {
    Tally[] committed = new Tally[1];
    T result =
        tx.write(
            what,
            c -> {
              Tally tally = Tally.of(); // afresh for each try: a retried try counts once
              T r = work.run(c, tally);
              committed[0] = tally;
              return r;
            });
    pending.add(committed[0], now);
    return result;
  }

  /**
   * Runs {@code work} as statements committed alone ({@link Transactions#writeAlone}). Each count
   * is added to the tally after the statement that did it committed, so what the tally holds is
   * counted even when a later statement fails.
   */
  <T> T writeAlone(String what, Instant now, Work<T> work) {
    return tx.writeAlone(
        what,
        c -> {
          Tally tally = Tally.of();
          try {
            return work.run(c, tally);
          } finally {
            pending.add(tally, now);
          }
        });
  }

  /** Runs {@code work} in the caller's transaction on {@code connection}. */
  <T> T onCallerConnection(String what, Connection connection, Instant now, Work<T> work) {
    return tx.onCallerConnection(
        what,
        connection,
        c -> {
          Tally tally = Tally.of();
          T result = work.run(c, tally);
          throughput.addInCallerTransaction(c, tally, now);
          return result;
        });
  }
}
