package io.redrive.jdbc;

import io.redrive.error.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Runs units of work in JDBC transactions: commit on success, rollback on any exception, a few
 * retries of transient failures (deadlock, busy), and vendor exceptions wrapped in {@link
 * StoreException} with their SQLState. Thread-safe.
 */
final class Transactions {
  private static final int MAX_TRIES = 5;

  /** A unit of work on one connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final SchemaQualifier schema;

  /**
   * @param schema names Redrive's schema in every statement; null where tables need no schema
   */
  Transactions(DataSource dataSource, SqlDialect dialect, SchemaQualifier schema) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.schema = schema;
  }

  private Connection qualified(Connection c) {
    return schema == null ? c : schema.wrap(c);
  }

  /** Runs {@code work} in a write transaction of its own. */
  <T> T write(String what, Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = dataSource.getConnection()) {
        try (AutoCloseable ignored = dialect.beforeWrite(c)) {
          c.setAutoCommit(false);
          try {
            T result = work.run(qualified(c));
            c.commit();
            return result;
          } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c, e);
            throw e;
          } finally {
            c.setAutoCommit(true);
          }
        }
      } catch (SQLException e) {
        if (attempt < MAX_TRIES && dialect.isTransient(e)) {
          backoff(attempt);
          continue;
        }
        throw wrap(what, e);
      } catch (RuntimeException e) {
        throw e; // ours (RedriveException, IllegalArgumentException) or a bug: never retried
      } catch (Exception e) {
        throw new StoreException(what + " failed: " + e.getMessage(), null, false, e);
      }
    }
  }

  /** Runs {@code work} on a connection in auto-commit mode (single reads). */
  <T> T read(String what, Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      return work.run(qualified(c));
    } catch (SQLException e) {
      throw wrap(what, e);
    }
  }

  /** Runs {@code work} on the caller's connection, inside the caller's transaction. */
  <T> T onCallerConnection(String what, Connection c, Work<T> work) {
    try {
      return work.run(qualified(c));
    } catch (SQLException e) {
      throw wrap(what, e);
    }
  }

  StoreException wrap(String what, SQLException e) {
    return new StoreException(
        what + " failed: " + e.getMessage(), e.getSQLState(), dialect.isTransient(e), e);
  }

  private static void rollbackQuietly(Connection c, Throwable cause) {
    try {
      c.rollback();
    } catch (SQLException r) {
      cause.addSuppressed(r);
    }
  }

  private static void backoff(int attempt) {
    try {
      // Transient conflicts clear in milliseconds; a short, growing pause avoids a retry storm.
      Thread.sleep(Math.min(50L, 2L << attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("interrupted while retrying a transaction", null, true, e);
    }
  }
}
