package io.redrive.jdbc;

import io.redrive.error.CommitUnknownException;
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
  private final TurnWakeups wakeups;

  /**
   * @param schema names Redrive's schema in every statement; null where tables need no schema
   * @param wakeups told when each transaction ends, for the turns its statements announced
   */
  Transactions(
      DataSource dataSource, SqlDialect dialect, SchemaQualifier schema, TurnWakeups wakeups) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.schema = schema;
    this.wakeups = wakeups;
  }

  /** What tells of due workflow turns after a commit (the store's ready signal). */
  void onTurnsCommitted(Runnable wake) {
    wakeups.onCommitted(wake);
  }

  private Connection qualified(Connection c) {
    return schema == null ? c : schema.wrap(c);
  }

  /** The dialect the store runs on. */
  SqlDialect dialect() {
    return dialect;
  }

  /**
   * Runs {@code work} in a write transaction of its own. A failure of COMMIT itself (other than a
   * definite rollback) is {@link CommitUnknownException} and never retried: the change may have
   * happened. Clean-up failures never replace the failure that caused them, and never fail a call
   * whose commit succeeded.
   */
  <T> T write(String what, Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      try {
        return writeOnce(what, work);
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

  private <T> T writeOnce(String what, Work<T> work) throws Exception {
    Connection c = dataSource.getConnection();
    AutoCloseable writerLock = null;
    try {
      writerLock = dialect.beforeWrite(c);
      c.setAutoCommit(false);
      T result;
      wakeups.begin();
      try {
        result = work.run(qualified(c));
      } catch (SQLException | RuntimeException e) {
        wakeups.rolledBack();
        rollbackQuietly(c, e);
        throw e;
      }
      try {
        commit(what, c);
      } catch (SQLException | RuntimeException e) {
        wakeups.rolledBack(); // a commit whose outcome is unknown wakes nobody: pollers find it
        throw e;
      }
      release(null, c, writerLock);
      wakeups.committed();
      return result;
    } catch (Throwable t) {
      release(t, c, writerLock);
      throw t;
    }
  }

  /** Restores auto-commit, releases the writer lock and closes {@code c}; never throws. */
  private static void release(Throwable failure, Connection c, AutoCloseable writerLock) {
    cleanUp(failure, () -> c.setAutoCommit(true));
    if (writerLock != null) {
      cleanUp(failure, writerLock);
    }
    cleanUp(failure, c);
  }

  private void commit(String what, Connection c) throws SQLException {
    try {
      c.commit();
    } catch (SQLException e) {
      if (definitelyRolledBack(e)) {
        rollbackQuietly(c, e);
        throw e;
      }
      // The COMMIT may have reached the database: retrying could apply the change twice.
      throw new CommitUnknownException(
          what + " failed while committing: " + e.getMessage(), e.getSQLState(), e);
    }
  }

  /** Serialization failures, deadlocks and deferred constraint violations roll back for sure. */
  private static boolean definitelyRolledBack(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.startsWith("40") || state.startsWith("23"));
  }

  /**
   * Runs one clean-up step. Its failure is added to {@code failure} when there is one (so it never
   * hides it); after a successful commit it is dropped, since the answer stands and the pool
   * discards a broken connection.
   */
  private static void cleanUp(Throwable failure, AutoCloseable step) {
    try {
      step.close();
    } catch (Exception e) {
      if (failure != null && failure != e) {
        failure.addSuppressed(e);
      }
    }
  }

  /**
   * Runs {@code work} whose only write is one statement, in auto-commit mode: the statement commits
   * as it ends, which saves the round trip of a {@code COMMIT}. Reads may follow the write. A
   * failure the database reported (a conflict, a deadlock: definitely rolled back) is retried like
   * in {@link #write}; a lost connection or an unanswered statement is {@link
   * CommitUnknownException}, never retried, since the statement may have committed.
   */
  <T> T writeAlone(String what, Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      Connection c;
      try {
        c = dataSource.getConnection();
      } catch (SQLException e) {
        throw wrap(what, e); // nothing was sent
      }
      wakeups.begin();
      try {
        T result = work.run(qualified(c));
        cleanUp(null, c);
        wakeups.committed();
        return result;
      } catch (SQLException e) {
        wakeups.rolledBack();
        cleanUp(e, c);
        if (definitelyRolledBack(e)) {
          if (attempt < MAX_TRIES && dialect.isTransient(e)) {
            backoff(attempt);
            continue;
          }
          throw wrap(what, e);
        }
        if (mayHaveCommitted(e)) {
          throw new CommitUnknownException(
              what + " failed with its outcome unknown: " + e.getMessage(), e.getSQLState(), e);
        }
        throw wrap(what, e);
      } catch (RuntimeException e) {
        wakeups.rolledBack();
        cleanUp(e, c);
        throw e;
      }
    }
  }

  /**
   * True when a statement run in auto-commit failed in a way that says nothing of whether it
   * committed: the connection broke or stopped answering (no SQLState, class 08, the server shut
   * down under it).
   */
  private static boolean mayHaveCommitted(SQLException e) {
    String state = e.getSQLState();
    return state == null || state.startsWith("08") || state.startsWith("57P");
  }

  /** Runs {@code work} on a connection in auto-commit mode (single reads). */
  <T> T read(String what, Work<T> work) {
    T result;
    Connection c;
    try {
      c = dataSource.getConnection();
    } catch (SQLException e) {
      throw wrap(what, e);
    }
    try {
      result = work.run(qualified(c));
    } catch (SQLException | RuntimeException e) {
      cleanUp(e, c);
      throw e instanceof SQLException s ? wrap(what, s) : (RuntimeException) e;
    }
    cleanUp(null, c); // the answer was read; a failing close must not turn it into an error
    return result;
  }

  /** Runs {@code work} on the caller's connection, inside the caller's transaction. */
  <T> T onCallerConnection(String what, Connection c, Work<T> work) {
    wakeups.begin();
    try {
      T result = work.run(qualified(c));
      wakeups.inCallerTransaction(c);
      return result;
    } catch (SQLException e) {
      wakeups.rolledBack();
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
