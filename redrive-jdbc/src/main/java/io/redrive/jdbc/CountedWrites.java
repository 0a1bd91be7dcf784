package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Writes that count their throughput (docs/engine.md, "Throughput counters"): the work adds what it
 * enqueues, completes, fails or kills to a {@link Tally}, and the last statement of the write adds
 * that to the counters of {@code now}'s minute ({@link ThroughputRows#flush}). Thread-safe; entered
 * by the store's calls.
 */
final class CountedWrites {
  /** Work that counts its throughput in a {@link Tally}. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection, Tally tally) throws SQLException;
  }

  private final Transactions tx;
  private final ThroughputRows throughput;

  CountedWrites(Transactions tx, ThroughputRows throughput) {
    this.tx = tx;
    this.throughput = throughput;
  }

  /** Runs {@code work} in a write transaction of its own. */
  <T> T write(String what, Instant now, Work<T> work) {
    return tx.write(
        what,
        c -> {
          Tally tally = Tally.of();
          T result = work.run(c, tally);
          throughput.flush(c, tally, now, false);
          return result;
        });
  }

  /**
   * Runs {@code work} as statements committed alone ({@link Transactions#writeAlone}), whose tally
   * counts only what a statement did not count itself ({@link Tally#alone}).
   */
  <T> T writeAlone(String what, Instant now, Work<T> work) {
    return tx.writeAlone(
        what,
        c -> {
          Tally tally = Tally.alone();
          T result = work.run(c, tally);
          throughput.flush(c, tally, now, false);
          return result;
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
          throughput.flush(c, tally, now, true);
          return result;
        });
  }
}
