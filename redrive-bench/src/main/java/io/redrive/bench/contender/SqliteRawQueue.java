package io.redrive.bench.contender;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The raw-SQL baseline translated to SQLite: the same table and partial indexes, the same insert,
 * and the cycle as a claim ({@code UPDATE ... RETURNING}, its own write transaction: SQLite has one
 * writer, so no SKIP LOCKED is needed) followed by a delete.
 */
final class SqliteRawQueue implements RawQueue {
  private static final String NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";
  private static final String[] SCHEMA = {
    "DROP TABLE IF EXISTS jobs",
    "CREATE TABLE jobs ("
        + " id INTEGER PRIMARY KEY,"
        + " queue TEXT NOT NULL,"
        + " payload TEXT NOT NULL,"
        + " status TEXT NOT NULL DEFAULT 'ready',"
        + " attempts INTEGER NOT NULL DEFAULT 0,"
        + " max_attempts INTEGER NOT NULL DEFAULT 5,"
        + " visible_at INTEGER NOT NULL DEFAULT ("
        + NOW_MS
        + "),"
        + " lease_owner TEXT,"
        + " lease_expires_at INTEGER,"
        + " created_at INTEGER NOT NULL DEFAULT ("
        + NOW_MS
        + "))",
    "CREATE INDEX jobs_dequeue_idx ON jobs (queue, visible_at, id) WHERE status = 'ready'",
    "CREATE INDEX jobs_lease_idx ON jobs (lease_expires_at) WHERE status = 'leased'"
  };
  private static final String ENQ1 =
      "INSERT INTO jobs (queue, payload) VALUES ('default', " + Payload.literal() + ")";
  private static final String CLAIM =
      "UPDATE jobs SET status = 'leased', attempts = attempts + 1, lease_owner = 'w' || ?,"
          + " lease_expires_at = "
          + NOW_MS
          + " + 30000"
          + " WHERE id IN (SELECT id FROM jobs"
          + " WHERE queue = 'default' AND status = 'ready' AND visible_at <= "
          + NOW_MS
          + " ORDER BY visible_at, id LIMIT ?)"
          + " RETURNING id, payload, attempts";
  private static final String DELETE =
      "DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(?)) AND status = 'leased'";

  @Override
  public void createSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : SCHEMA) {
        s.execute(sql);
      }
    }
  }

  @Override
  public void fill(Connection c, long ready, long scheduled, long dead) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("DELETE FROM jobs");
      s.execute(series(ready, "'default', " + Payload.literal(), "queue, payload"));
      if (scheduled > 0) {
        s.execute(
            series(
                scheduled,
                "'default', " + Payload.literal() + ", " + NOW_MS + " + 3600000",
                "queue, payload, visible_at"));
      }
      if (dead > 0) {
        s.execute(
            series(
                dead,
                "'default', " + Payload.literal() + ", 'dead', 5",
                "queue, payload, status, attempts"));
      }
      s.execute("ANALYZE");
    }
  }

  private static String series(long rows, String values, String columns) {
    return "INSERT INTO jobs ("
        + columns
        + ") WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < "
        + rows
        + ") SELECT "
        + values
        + " FROM s";
  }

  @Override
  public Producer producer(Connection c, int batch) throws SQLException {
    PreparedStatement ps =
        c.prepareStatement(batch == 1 ? ENQ1 : RawSql.multiRowInsert(ENQ1, batch));
    return ps::executeUpdate;
  }

  @Override
  public Consumer consumer(Connection c, int n, int clientId) throws SQLException {
    PreparedStatement claim = c.prepareStatement(CLAIM);
    PreparedStatement delete = c.prepareStatement(DELETE);
    claim.setString(1, Integer.toString(clientId));
    claim.setInt(2, n);
    return () -> {
      StringBuilder ids = new StringBuilder("[");
      int got = 0;
      try (ResultSet rs = claim.executeQuery()) {
        while (rs.next()) {
          ids.append(got++ == 0 ? "" : ",").append(rs.getLong(1));
          rs.getString(2);
        }
      }
      if (got > 0) {
        delete.setString(1, ids.append(']').toString());
        delete.executeUpdate();
      }
      return got;
    };
  }
}
