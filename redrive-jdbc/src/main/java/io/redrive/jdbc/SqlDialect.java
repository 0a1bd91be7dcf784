package io.redrive.jdbc;

import io.redrive.message.PayloadField;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * What differs between the databases a {@link JdbcStore} runs on: row locking, how a write
 * transaction begins and ends, and which errors are transient. Each store module supplies its own.
 */
public interface SqlDialect {

  /**
   * Suffix that locks the selected rows of table alias {@code alias} for the transaction ({@code
   * FOR UPDATE OF m}), or empty where the transaction already excludes other writers.
   */
  String lockRows(String alias);

  /**
   * A shared lock on the rows read ({@code FOR SHARE OF w}): other readers may take it too, a
   * writer waits. Where the database has no row locks, the exclusive clause.
   */
  default String lockRowsShared(String alias) {
    return lockRows(alias);
  }

  /** Like {@link #lockRows} but skipping rows others hold ({@code FOR UPDATE OF m SKIP LOCKED}). */
  String lockRowsSkipLocked(String alias);

  /**
   * Called before a write transaction starts on {@code connection}; returns a handle released by
   * {@link #afterWrite}. SQLite uses it to keep one writer per process.
   */
  default AutoCloseable beforeWrite(Connection connection) throws SQLException {
    return () -> {};
  }

  /** True when retrying the whole transaction may succeed (deadlock, serialization, busy). */
  boolean isTransient(SQLException e);

  /** True when the statement failed on a unique constraint. */
  boolean isUniqueViolation(SQLException e);

  /**
   * Called inside a caller's transaction that enqueued messages of {@code queue} (e.g. to NOTIFY on
   * its commit); enqueues in the store's own transactions announce themselves after the commit.
   */
  default void afterMessagesReady(Connection connection, String queue) throws SQLException {}

  /**
   * A table expression {@code v} with columns {@code (id, token)} and {@code count} rows, for
   * joining a batch in one statement; its parameters are bound by {@link #bindPairs}. The default
   * is a {@code SELECT ... UNION ALL} of parameters (SQLite cannot name the columns of a {@code
   * VALUES} list).
   */
  default String pairs(int count) {
    return "(SELECT ? AS id, ? AS token" + " UNION ALL SELECT ?, ?".repeat(count - 1) + ") AS v";
  }

  /** Binds the rows of {@link #pairs} from {@code index} on; returns the next parameter index. */
  default int bindPairs(PreparedStatement ps, int index, List<String> ids, List<String> tokens)
      throws SQLException {
    for (int i = 0; i < ids.size(); i++) {
      ps.setString(index++, ids.get(i));
      ps.setString(index++, tokens.get(i));
    }
    return index;
  }

  /**
   * A membership test for {@code count} text values ({@code IN (?, ?)}), bound by {@link #bindIn}.
   */
  default String in(int count) {
    return "IN (" + String.join(", ", Collections.nCopies(count, "?")) + ")";
  }

  /** Binds the values of {@link #in} from {@code index} on; returns the next parameter index. */
  default int bindIn(PreparedStatement ps, int index, Collection<String> values)
      throws SQLException {
    for (String v : values) {
      ps.setString(index++, v);
    }
    return index;
  }

  /**
   * A predicate on {@code id} and {@code lease_token} true for the rows whose current lease is one
   * of {@code count} (id, nonce) pairs; bound by {@link #bindTokensMatch}.
   */
  default String tokensMatch(int count) {
    return "(id, lease_token) IN (SELECT v.id, v.token FROM " + pairs(count) + ")";
  }

  /** Binds the pairs of {@link #tokensMatch} from {@code index} on; returns the next index. */
  default int bindTokensMatch(
      PreparedStatement ps, int index, List<String> ids, List<String> nonces) throws SQLException {
    return bindPairs(ps, index, ids, nonces);
  }

  /**
   * True when a batch is better written as one cached statement executed per row ({@code
   * executeBatch}) than as one statement over all rows: so for an in-process database, where a
   * statement costs no round trip and a wide statement costs more to run than its rows.
   */
  default boolean batchesRowByRow() {
    return false;
  }

  /**
   * True when a multi-row insert is better sent as one array per column ({@code unnest}) than as
   * one parameter per value: PostgreSQL binds and parses 17 arrays much faster than 17 000 scalar
   * parameters for a batch of 1 000 messages.
   */
  default boolean insertsByColumnArrays() {
    return false;
  }

  /**
   * True when the hot writes whose lost answer the engine already handles run as single statements
   * committed on their own (auto-commit), which saves each the round trip of a {@code COMMIT}: a
   * lease round ({@link LeaseClaims}, PostgreSQL's data-modifying {@code WITH}; a lost one is given
   * back by its batch) and a batch of completions (a repeated complete is answered from its
   * completion record), and an enqueue into one queue without dedupe keys (its one insert; a lost
   * answer is {@code COMMIT_UNKNOWN}, see {@link Producing#writesOneStatement}). Otherwise a lease
   * reads the queue, selects its candidates and updates them in turn, in a transaction like every
   * other write.
   */
  default boolean singleStatementWrites() {
    return false;
  }

  /**
   * How many counter rows per queue and minute the store's own transactions spread their throughput
   * counts over (docs/engine.md, "Throughput counters"): where writers run concurrently, more than
   * one, so that concurrent settles of one queue rarely wait on one row. Reads sum over them.
   */
  default int throughputSlots() {
    return 1;
  }

  /**
   * SQL for the counter slot of an enqueue inside a caller's transaction, which may hold its
   * counter row until the caller commits: one that no concurrent transaction writes (PostgreSQL:
   * from the backend's process id), so no other writer ever waits on it. With one writer, any
   * constant.
   */
  default String callerThroughputSlot() {
    return "0";
  }

  /**
   * Appends to {@code sql} a predicate on {@code m.payload}, and its parameters to {@code args},
   * true for the rows whose payload is JSON holding a string, number or boolean at {@code field}'s
   * path whose text equals its value ({@link PayloadField}). A payload that is not JSON, or lacks
   * the field, is no match and never an error: the predicate guards every JSON function it calls.
   *
   * @throws IllegalArgumentException naming {@code field} when this database cannot evaluate it
   */
  default void payloadFieldEquals(
      Connection connection, PayloadField field, StringBuilder sql, List<Object> args)
      throws SQLException {
    throw new IllegalArgumentException(
        "field: this store cannot filter messages by a payload field");
  }

  /**
   * Takes a lock per key of {@code keys} (distinct, ascending), in that order, held until the
   * transaction ends ({@link KeyLocks}): so two transactions that will meet some of the same unique
   * or dedupe keys wait for each other at the first shared key instead of deadlocking on the keys'
   * index entries. A database with one writer needs none.
   */
  default void lockKeys(Connection connection, int[] keys) throws SQLException {}
}
