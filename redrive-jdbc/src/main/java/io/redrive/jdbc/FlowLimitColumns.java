package io.redrive.jdbc;

import io.redrive.queue.FlowLimits;
import io.redrive.queue.Rate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;

/**
 * The flow-limit columns of {@code redrive_queues}: a queue's {@link FlowLimits}, and its {@code
 * flow_until}, until when (epoch millis) its leases take the limited path ({@link FlowGate}):
 * {@link #LIMITED} for a queue with limits, the end of its latest slow-down hold for one without
 * (see {@link FlowBuckets#hold}), 0 when neither. Kept apart from {@link QueueRows}' own columns so
 * that the queue insert stays as it was; the limits are written by a second statement.
 */
final class FlowLimitColumns {
  /** The columns {@link #limits} reads, by name; selected after {@link QueueRows#COLUMNS}. */
  static final String COLUMNS =
      "max_running, max_running_per_key, rate_leases, rate_period_ms, rate_per_key_leases,"
          + " rate_per_key_period_ms, flow_until";

  /** {@code flow_until} of a queue with limits: every lease takes the limited path. */
  static final long LIMITED = Long.MAX_VALUE;

  private FlowLimitColumns() {}

  /** Reads the limits from a row holding {@link #COLUMNS}. */
  static FlowLimits limits(ResultSet rs) throws SQLException {
    return new FlowLimits(
        integer(rs, "max_running"),
        integer(rs, "max_running_per_key"),
        rate(rs, "rate_leases", "rate_period_ms"),
        rate(rs, "rate_per_key_leases", "rate_per_key_period_ms"));
  }

  /** True when leases of the queue read from {@code rs} take the limited path at {@code now}. */
  static boolean limitedAt(ResultSet rs, Instant now) throws SQLException {
    return rs.getLong("flow_until") > now.toEpochMilli();
  }

  /**
   * Writes the limits of queue {@code name}, and its {@code flow_until} from them (a queue without
   * limits keeps the limited path while a hold of one of its buckets lasts).
   */
  static void write(Connection c, String name, FlowLimits limits) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_queues SET max_running = ?, max_running_per_key = ?, rate_leases = ?,"
                + " rate_period_ms = ?, rate_per_key_leases = ?, rate_per_key_period_ms = ?,"
                + " flow_until = CASE WHEN ? THEN CAST(? AS BIGINT) ELSE COALESCE((SELECT"
                + " MAX(b.held_until) FROM redrive_flow_buckets b WHERE b.queue = ?), 0) END"
                + " WHERE name = ?")) {
      int i = 1;
      setInt(ps, i++, limits.maxRunning());
      setInt(ps, i++, limits.maxRunningPerKey());
      i = setRate(ps, i, limits.rate());
      i = setRate(ps, i, limits.ratePerKey());
      ps.setBoolean(i++, !limits.isEmpty());
      ps.setLong(i++, LIMITED);
      ps.setString(i++, name);
      ps.setString(i, name);
      ps.executeUpdate();
    }
  }

  private static int setRate(PreparedStatement ps, int i, Rate rate) throws SQLException {
    if (rate == null) {
      ps.setNull(i++, Types.INTEGER);
      ps.setNull(i++, Types.BIGINT);
    } else {
      ps.setInt(i++, rate.leases());
      ps.setLong(i++, rate.period().toMillis());
    }
    return i;
  }

  private static void setInt(PreparedStatement ps, int i, Integer value) throws SQLException {
    if (value == null) {
      ps.setNull(i, Types.INTEGER);
    } else {
      ps.setInt(i, value);
    }
  }

  private static Integer integer(ResultSet rs, String column) throws SQLException {
    int v = rs.getInt(column);
    return rs.wasNull() ? null : v;
  }

  private static Rate rate(ResultSet rs, String leases, String period) throws SQLException {
    int n = rs.getInt(leases);
    if (rs.wasNull()) {
      return null;
    }
    return Rate.of(n, Duration.ofMillis(rs.getLong(period)));
  }
}
