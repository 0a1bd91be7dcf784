package io.redrive.bench.contender;

import io.redrive.postgres.PostgresStore;
import io.redrive.store.Store;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** One schema on the benchmark's PostgreSQL server; dropped on close. */
final class PostgresDatabase implements BenchDatabase {
  private final String adminUrl;
  private final String schema;

  PostgresDatabase(String adminUrl, String schema) {
    this.adminUrl = adminUrl;
    this.schema = schema;
  }

  @Override
  public Store openStore(int poolSize) {
    return PostgresStore.builder(adminUrl).schema(schema).poolSize(poolSize).build();
  }

  @Override
  public String url() {
    return adminUrl + (adminUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  @Override
  public Connection connect() {
    try {
      return DriverManager.getConnection(url());
    } catch (SQLException e) {
      throw new IllegalStateException("connecting to " + schema + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Resets {@code pg_stat_statements} (server-wide: the benchmark runs one side at a time); a
   * server without the extension loaded keeps no statistics and {@link #statements()} says so.
   */
  @Override
  public void resetStatements() {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      s.execute("SELECT pg_stat_statements_reset()");
    } catch (SQLException e) {
      // not loaded (shared_preload_libraries): this server gives no statement statistics
    }
  }

  @Override
  public StatementStats statements() {
    String sql =
        "SELECT query, calls, total_exec_time FROM pg_stat_statements"
            + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
            + " ORDER BY calls DESC, total_exec_time DESC";
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      List<StatementStats.Statement> statements = new java.util.ArrayList<>();
      long transactions = 0;
      while (rs.next()) {
        String query = rs.getString(1).trim();
        String word = query.split("\\s+", 2)[0].toUpperCase(java.util.Locale.ROOT);
        if (word.equals("BEGIN")) {
          transactions += rs.getLong(2); // the driver's BEGIN opens every explicit transaction
        } else if (!word.equals("COMMIT")
            && !word.equals("ROLLBACK")
            && !query.contains("pg_stat_statements")
            && !query.startsWith("SET application_name")) {
          statements.add(new StatementStats.Statement(query, rs.getLong(2), rs.getDouble(3)));
        }
      }
      return new StatementStats(statements, transactions);
    } catch (SQLException e) {
      return null; // the extension is not there
    }
  }

  @Override
  public RawQueue raw() {
    return new PostgresRawQueue();
  }

  @Override
  public void fillMessages(
      String queue, String type, String payload, long ready, long scheduled, long dead) {
    long now = System.currentTimeMillis();
    String sql =
        "INSERT INTO redrive_messages (id, queue, type, payload, state, attempts, progress,"
            + " enqueued_at, visible_at, dead_reason, dead_at)"
            + " SELECT gen_random_uuid()::text, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?"
            + " FROM generate_series(1, ?)";
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      insert(ps, queue, type, payload, "READY", 0, now, now, null, ready);
      insert(ps, queue, type, payload, "READY", 0, now, now + 3_600_000L, null, scheduled);
      insert(ps, queue, type, payload, "DEAD", 5, now, now, "HANDLER_EXCEPTION", dead);
    } catch (SQLException e) {
      throw new IllegalStateException("filling redrive_messages failed: " + e.getMessage(), e);
    }
  }

  private static void insert(
      PreparedStatement ps,
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
    ps.setString(1, queue);
    ps.setString(2, type);
    ps.setString(3, payload);
    ps.setString(4, state);
    ps.setInt(5, attempts);
    ps.setLong(6, now);
    ps.setLong(7, visibleAt);
    ps.setString(8, deadReason);
    if (deadReason == null) {
      ps.setNull(9, java.sql.Types.BIGINT);
    } else {
      ps.setLong(9, now);
    }
    ps.setLong(10, rows);
    ps.executeUpdate();
  }

  @Override
  public long tableBytes(String table) {
    return longQuery("SELECT pg_total_relation_size('" + schema + "." + table + "')");
  }

  @Override
  public long deadTuples(String table) {
    return longQuery(
        "SELECT coalesce(max(n_dead_tup), 0) FROM pg_stat_user_tables WHERE schemaname = '"
            + schema
            + "' AND relname = '"
            + table
            + "'");
  }

  @Override
  public void analyze(List<String> tables) {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      for (String t : tables) {
        s.execute("VACUUM ANALYZE " + t);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("VACUUM ANALYZE failed: " + e.getMessage(), e);
    }
  }

  private long longQuery(String sql) {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : -1;
    } catch (SQLException e) {
      throw new IllegalStateException(sql + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try (Connection c = DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("DROP SCHEMA " + schema + " failed: " + e.getMessage(), e);
    }
  }
}
