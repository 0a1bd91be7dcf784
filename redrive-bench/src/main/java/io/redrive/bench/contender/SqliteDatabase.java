package io.redrive.bench.contender;

import io.redrive.sqlite.SqliteStore;
import io.redrive.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.sqlite.SQLiteConfig;

/** One SQLite file, opened with Redrive's pragmas; deleted on close. */
final class SqliteDatabase implements BenchDatabase {
  private final Path file;

  SqliteDatabase(Path file) {
    this.file = file;
  }

  @Override
  public Store openStore(int poolSize) {
    return SqliteStore.open(file, Math.min(64, poolSize));
  }

  @Override
  public String url() {
    return "jdbc:sqlite:" + file.toAbsolutePath();
  }

  /** WAL, synchronous=NORMAL, busy_timeout=30 s: the same as {@link SqliteStore}. */
  @Override
  public Connection connect() {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout(30_000);
    config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
    try {
      return config.createConnection(url());
    } catch (SQLException e) {
      throw new IllegalStateException("opening " + file + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public RawQueue raw() {
    return new SqliteRawQueue();
  }

  @Override
  public void fillMessages(
      String queue, String type, String payload, long ready, long scheduled, long dead) {
    long now = System.currentTimeMillis();
    String sql =
        "INSERT INTO redrive_messages (id, queue, type, payload, state, attempts, progress,"
            + " enqueued_at, visible_at, dead_reason, dead_at)"
            + " WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?)"
            + " SELECT printf('%08x-0000-7000-8000-%012x', ?, i), ?, ?, ?, ?, ?, 0, ?, ?, ?, ?"
            + " FROM s";
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      insert(ps, 1, queue, type, payload, "READY", 0, now, now, null, ready);
      insert(ps, 2, queue, type, payload, "READY", 0, now, now + 3_600_000L, null, scheduled);
      insert(ps, 3, queue, type, payload, "DEAD", 5, now, now, "HANDLER_EXCEPTION", dead);
    } catch (SQLException e) {
      throw new IllegalStateException("filling redrive_messages failed: " + e.getMessage(), e);
    }
  }

  private static void insert(
      PreparedStatement ps,
      int group,
      String queue,
      String type,
      String payload,
      String state,
      int attempts,
      long now,
      long visibleAt,
      String deadReason,
      long rows)
      throws SQLException {
    if (rows <= 0) {
      return;
    }
    ps.setLong(1, rows);
    ps.setInt(2, group);
    ps.setString(3, queue);
    ps.setString(4, type);
    ps.setString(5, payload);
    ps.setString(6, state);
    ps.setInt(7, attempts);
    ps.setLong(8, now);
    ps.setLong(9, visibleAt);
    ps.setString(10, deadReason);
    if (deadReason == null) {
      ps.setNull(11, java.sql.Types.BIGINT);
    } else {
      ps.setLong(11, now);
    }
    ps.executeUpdate();
  }

  /** The whole database file (SQLite has no per-table size without the dbstat extension). */
  @Override
  public long tableBytes(String table) {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")) {
      return rs.next() ? rs.getLong(1) : -1;
    } catch (SQLException e) {
      return -1;
    }
  }

  /** SQLite has no dead tuples: deleted rows' pages go to the free list and are reused. */
  @Override
  public long deadTuples(String table) {
    return -1;
  }

  @Override
  public void analyze(List<String> tables) {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("ANALYZE");
    } catch (SQLException e) {
      throw new IllegalStateException("ANALYZE failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    for (String suffix : new String[] {"", "-wal", "-shm"}) {
      try {
        Files.deleteIfExists(file.resolveSibling(file.getFileName() + suffix));
      } catch (IOException e) {
        // best effort
      }
    }
  }
}
