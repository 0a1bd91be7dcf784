package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

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

  /** Called inside a transaction that makes messages of {@code queue} ready (e.g. to NOTIFY). */
  default void afterMessagesReady(Connection connection, String queue) throws SQLException {}
}
