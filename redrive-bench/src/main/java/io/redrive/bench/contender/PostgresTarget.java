package io.redrive.bench.contender;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A PostgreSQL server (given by url, or the embedded one); each run gets a fresh schema. */
public final class PostgresTarget implements Target {
  private final String adminUrl;
  private final String runId = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
  private final AtomicInteger schemas = new AtomicInteger();

  /**
   * @param adminUrl JDBC url with credentials of a database the benchmark may create schemas in
   */
  public PostgresTarget(String adminUrl) {
    this.adminUrl = adminUrl;
  }

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public BenchDatabase newDatabase() {
    String schema = "bench_" + runId + "_" + schemas.incrementAndGet();
    try (Connection c = DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      s.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException("CREATE SCHEMA " + schema + " failed: " + e.getMessage(), e);
    }
    return new PostgresDatabase(adminUrl, schema);
  }

  @Override
  public String version() {
    try (Connection c = DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version()")) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** Settings from a configuration file or the command line, plus the few that decide speed. */
  @Override
  public Map<String, String> settings() {
    Map<String, String> out = new LinkedHashMap<>();
    String sql =
        "SELECT name, setting, unit, source FROM pg_settings"
            + " WHERE source NOT IN ('default', 'override', 'client', 'session')"
            + " OR name IN ('synchronous_commit', 'fsync', 'full_page_writes', 'shared_buffers',"
            + " 'wal_level', 'max_connections', 'autovacuum', 'work_mem')"
            + " ORDER BY name";
    try (Connection c = DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        String unit = rs.getString(3);
        out.put(
            rs.getString(1),
            rs.getString(2) + (unit == null ? "" : " × " + unit) + " (" + rs.getString(4) + ")");
      }
    } catch (SQLException e) {
      out.put("error", e.getMessage());
    }
    return out;
  }

  @Override
  public void close() {}
}
