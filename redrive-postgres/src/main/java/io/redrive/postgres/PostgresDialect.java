package io.redrive.postgres;

import io.redrive.jdbc.SqlDialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * PostgreSQL: row locks with {@code FOR UPDATE}, {@code SKIP LOCKED} so concurrent leasers on many
 * nodes never wait for each other's candidates, and a {@code NOTIFY} per queue per transaction to
 * wake idle workers.
 */
final class PostgresDialect implements SqlDialect {
  private final String channel;

  /**
   * @param channel the NOTIFY channel (one per schema, so schemas sharing a database don't mix)
   */
  PostgresDialect(String channel) {
    this.channel = channel;
  }

  /** The NOTIFY channel of a schema (null: the search path's). */
  static String channel(String schema) {
    return schema == null ? "redrive_ready" : "redrive_ready:" + schema;
  }

  @Override
  public String lockRows(String alias) {
    return "FOR UPDATE OF " + alias;
  }

  @Override
  public String lockRowsSkipLocked(String alias) {
    return "FOR UPDATE OF " + alias + " SKIP LOCKED";
  }

  @Override
  public boolean isTransient(SQLException e) {
    String state = e.getSQLState();
    if (state == null) {
      return false;
    }
    return state.equals("40001") // serialization failure
        || state.equals("40P01") // deadlock detected
        || state.equals("55P03") // lock not available
        || state.equals("57P01") // admin shutdown
        || state.startsWith("08"); // connection exception
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return "23505".equals(e.getSQLState());
  }

  @Override
  public void afterMessagesReady(Connection connection, String queue) throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
      ps.setString(1, channel);
      ps.setString(2, queue);
      ps.execute();
    }
  }
}
