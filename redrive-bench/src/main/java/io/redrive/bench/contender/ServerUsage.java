package io.redrive.bench.contender;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What one database of a PostgreSQL server ran, read from another database of the same server so
 * the readings add nothing to what they count: statements from {@code pg_stat_statements} (every
 * call but transaction control: BEGIN, COMMIT, ROLLBACK, and the driver's {@code SET
 * application_name}), commits from {@code pg_stat_database.xact_commit}, and WAL bytes from {@code
 * pg_current_wal_lsn()} (server-wide: whatever else the server writes counts too). A backend
 * reports its commits at most once a second while busy, within 10 s once idle (PostgreSQL 15 and
 * later) and at the latest when it exits, so a reading is complete only once the system under test
 * has closed its connections.
 */
public final class ServerUsage implements AutoCloseable {
  /** Counters at one moment, or their difference. */
  public record Reading(long statements, long commits, long walBytes) {
    public Reading minus(Reading earlier) {
      return new Reading(
          statements - earlier.statements, commits - earlier.commits, walBytes - earlier.walBytes);
    }
  }

  private static final String STATEMENTS =
      "SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s"
          + " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = ?"
          + " AND upper(split_part(btrim(s.query), ' ', 1)) NOT IN ('BEGIN', 'COMMIT', 'ROLLBACK')"
          + " AND s.query NOT LIKE 'SET application_name%'";
  private static final String COUNTERS =
      "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = ?),"
          + " pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint";

  /** How long a reading waits for closed connections' backends to report their commits. */
  static final long SETTLE_MILLIS = 1500;

  /** How long {@link #begin()} waits for idle backends to report their commits. */
  static final long IDLE_REPORT_MILLIS = 11_000;

  private final Connection connection;
  private final String database;

  private ServerUsage(Connection connection, String database) {
    this.connection = connection;
    this.database = database;
  }

  /**
   * Reads {@code database} through {@code adminUrl} (another database of the same server), or
   * answers null when the server has no {@code pg_stat_statements} to read.
   */
  public static ServerUsage open(String adminUrl, String database) {
    try {
      Connection c = DriverManager.getConnection(adminUrl);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        s.executeQuery("SELECT count(*) FROM pg_stat_statements").close();
      } catch (SQLException e) {
        c.close(); // not in shared_preload_libraries: no statement statistics on this server
        return null;
      }
      return new ServerUsage(c, database);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "connecting to " + adminUrl + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Empties {@code pg_stat_statements} (server-wide; the benchmark runs one system at a time), so
   * that a run's statements cannot be evicted by the ones before it: every fresh schema gives its
   * statements new entries, and the view keeps a bounded number.
   */
  public void reset() {
    try (Statement s = connection.createStatement()) {
      s.execute("SELECT pg_stat_statements_reset()");
    } catch (SQLException e) {
      throw new IllegalStateException("pg_stat_statements_reset failed: " + e.getMessage(), e);
    }
  }

  /**
   * Starts counting what comes next: waits {@value #IDLE_REPORT_MILLIS} ms for the setup's last
   * commits to be reported (a backend left idle reports within 10 s from PostgreSQL 15 on, its
   * {@code PGSTAT_IDLE_INTERVAL}; a shorter wait let a pool's idle connections report their setup
   * commits only at close, inside the count), forgets the statements so far and answers the
   * counters now.
   */
  public Reading begin() {
    sleep(IDLE_REPORT_MILLIS);
    reset();
    return read();
  }

  /**
   * What the server did since {@code before}, read once the connections of the system under test
   * have had {@value #SETTLE_MILLIS} ms to report their last commits (close them first).
   */
  public Reading since(Reading before) {
    sleep(SETTLE_MILLIS);
    return read().minus(before);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the server's counters", e);
    }
  }

  /** The counters now. */
  public Reading read() {
    try (PreparedStatement statements = connection.prepareStatement(STATEMENTS);
        PreparedStatement counters = connection.prepareStatement(COUNTERS)) {
      statements.setString(1, database);
      counters.setString(1, database);
      long calls;
      try (ResultSet rs = statements.executeQuery()) {
        rs.next();
        calls = rs.getLong(1);
      }
      try (ResultSet rs = counters.executeQuery()) {
        rs.next();
        return new Reading(calls, rs.getLong(1), rs.getLong(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reading the server's counters failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // nothing was written on it
    }
  }
}
