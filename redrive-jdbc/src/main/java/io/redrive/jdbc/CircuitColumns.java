package io.redrive.jdbc;

import io.redrive.queue.CircuitPolicy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.stream.Collectors;

/**
 * The circuit-breaker columns of {@code redrive_queues} ({@code circuit_failures} NULL: off), read
 * and bound by {@link QueueRows} after its other columns.
 */
final class CircuitColumns {
  private CircuitColumns() {}

  /** Binds the five circuit columns from {@code i}; returns the next index. */
  static int bind(PreparedStatement ps, int i, CircuitPolicy p) throws SQLException {
    if (p == null) {
      ps.setNull(i++, Types.INTEGER);
      ps.setNull(i++, Types.BIGINT);
      ps.setNull(i++, Types.BIGINT);
      ps.setNull(i++, Types.VARCHAR);
      ps.setBoolean(i++, false);
      return i;
    }
    ps.setInt(i++, p.failures());
    ps.setLong(i++, p.window().toMillis());
    ps.setLong(i++, p.probeInterval().toMillis());
    ps.setString(i++, waves(p));
    ps.setBoolean(i++, p.learn());
    return i;
  }

  /** The circuit policy of a row holding the queue columns, or null when off. */
  static CircuitPolicy policy(ResultSet rs) throws SQLException {
    int failures = rs.getInt("circuit_failures");
    if (rs.wasNull()) {
      return null;
    }
    return new CircuitPolicy(
        failures,
        Duration.ofMillis(rs.getLong("circuit_window_ms")),
        Duration.ofMillis(rs.getLong("circuit_probe_ms")),
        CircuitPolicy.parseWaves("circuit_waves", rs.getString("circuit_waves")),
        rs.getBoolean("circuit_learn"));
  }

  private static String waves(CircuitPolicy p) {
    return p.waves().stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
