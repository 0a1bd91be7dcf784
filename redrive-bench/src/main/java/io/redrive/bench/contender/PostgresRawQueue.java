package io.redrive.bench.contender;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The raw-SQL baseline on PostgreSQL: {@code schema.sql}, {@code enq1.sql} (and its 100-row form)
 * and {@code cycle.sql} as bundled, with their pgbench variables turned into bind parameters.
 */
final class PostgresRawQueue implements RawQueue {
  private static final String ENQ1 = RawSql.statements(RawSql.read("enq1.sql")).get(0);
  private static final String CLAIM;
  private static final String DELETE;

  static {
    String[] cycle = RawSql.read("cycle.sql").split("\\\\gset");
    CLAIM = cycle[0].strip().replace(":n", "?").replace(":client_id", "?");
    DELETE = RawSql.statements(cycle[1]).get(0).replace(":ids", "?");
  }

  @Override
  public void createSchema(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : RawSql.statements(RawSql.read("schema.sql"))) {
        s.execute(sql);
      }
    }
  }

  @Override
  public void fill(Connection c, long ready, long scheduled, long dead) throws SQLException {
    List<String> fill = RawSql.statements(RawSql.read("fill.sql"));
    try (Statement s = c.createStatement()) {
      s.execute(fill.get(0)); // TRUNCATE
      s.execute(fill.get(1).replace(":rows", Long.toString(ready)));
      if (scheduled > 0) {
        s.execute(
            "INSERT INTO jobs (queue, payload, visible_at) SELECT 'default', "
                + Payload.literal()
                + "::jsonb, now() + interval '1 hour' FROM generate_series(1, "
                + scheduled
                + ")");
      }
      if (dead > 0) {
        s.execute(
            "INSERT INTO jobs (queue, payload, status, attempts) SELECT 'default', "
                + Payload.literal()
                + "::jsonb, 'dead', 5 FROM generate_series(1, "
                + dead
                + ")");
      }
      s.execute(fill.get(2)); // VACUUM ANALYZE
    }
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
    claim.setInt(1, n);
    claim.setInt(2, clientId);
    return () -> {
      Array ids;
      int got;
      try (ResultSet rs = claim.executeQuery()) {
        rs.next();
        ids = rs.getArray(1);
        got = rs.getInt(2);
      }
      delete.setArray(1, ids);
      delete.executeUpdate();
      return got;
    };
  }
}
