package io.redrive.jdbc;

import io.redrive.objective.Objective;
import io.redrive.objective.ObjectiveKind;
import io.redrive.objective.ObjectiveMinute;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * SQL for {@code redrive_objectives} (the declarations) and {@code redrive_objective_minutes} (what
 * each objective saw per minute, keyed like the throughput counters: objective, minute, slot).
 */
final class ObjectiveRows {
  private static final long MINUTE_MS = 60_000L;

  private final SqlDialect dialect;

  /** The epoch minute of {@code t}, as the throughput counters key theirs. */
  static long minuteOf(Instant t) {
    return Math.floorDiv(t.toEpochMilli(), MINUTE_MS);
  }

  ObjectiveRows(SqlDialect dialect) {
    this.dialect = dialect;
  }

  void save(Connection c, Objective o, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_objectives AS o (name, queue, type, stream, kind, target, bound_ms,"
                + " window_ms, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (name) DO UPDATE SET queue = excluded.queue, type = excluded.type,"
                + " stream = excluded.stream, kind = excluded.kind, target = excluded.target,"
                + " bound_ms = excluded.bound_ms, window_ms = excluded.window_ms,"
                + " updated_at = excluded.updated_at")) {
      ps.setString(1, o.name());
      ps.setString(2, o.queue());
      ps.setString(3, o.type());
      ps.setString(4, o.stream());
      ps.setString(5, o.kind().name());
      ps.setDouble(6, o.target());
      ps.setLong(7, o.bound().toMillis());
      ps.setLong(8, o.window().toMillis());
      ps.setLong(9, now.toEpochMilli());
      ps.setLong(10, now.toEpochMilli());
      ps.executeUpdate();
    }
  }

  boolean delete(Connection c, String name) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_objective_minutes WHERE objective = ?")) {
      ps.setString(1, name);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_objectives WHERE name = ?")) {
      ps.setString(1, name);
      return ps.executeUpdate() > 0;
    }
  }

  List<Objective> list(Connection c) throws SQLException {
    List<Objective> out = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT name, queue, type, stream, kind, target, bound_ms, window_ms"
                    + " FROM redrive_objectives ORDER BY name");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(
            new Objective(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                ObjectiveKind.valueOf(rs.getString(5)),
                rs.getDouble(6),
                Duration.ofMillis(rs.getLong(7)),
                Duration.ofMillis(rs.getLong(8))));
      }
    }
    return out;
  }

  List<ObjectiveMinute> minutes(Connection c, String name, Instant from, Instant to)
      throws SQLException {
    List<ObjectiveMinute> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT minute, SUM(within), SUM(beyond) FROM redrive_objective_minutes"
                + " WHERE objective = ? AND minute >= ? AND minute <= ?"
                + " GROUP BY minute ORDER BY minute")) {
      ps.setString(1, name);
      ps.setLong(2, minuteOf(from));
      ps.setLong(3, minuteOf(to));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              new ObjectiveMinute(
                  Instant.ofEpochMilli(rs.getLong(1) * MINUTE_MS), rs.getLong(2), rs.getLong(3)));
        }
      }
    }
    return out;
  }

  /** Adds counts kept in memory to their rows: one batch, in key order, under one slot. */
  void add(Connection c, Map<ObjectiveCounts.Key, long[]> counts) throws SQLException {
    int slots = dialect.throughputSlots();
    int slot = slots <= 1 ? 0 : ThreadLocalRandom.current().nextInt(slots);
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_objective_minutes AS a (objective, minute, slot, within, beyond)"
                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (objective, minute, slot) DO UPDATE SET"
                + " within = a.within + excluded.within, beyond = a.beyond + excluded.beyond")) {
      for (Map.Entry<ObjectiveCounts.Key, long[]> e : counts.entrySet()) {
        ps.setString(1, e.getKey().objective());
        ps.setLong(2, e.getKey().minute());
        ps.setInt(3, slot);
        ps.setLong(4, e.getValue()[0]);
        ps.setLong(5, e.getValue()[1]);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * The age of the oldest message ready at {@code now} that {@code o} measures (zero when none is
   * ready): what an AGE objective samples.
   */
  Duration oldestReady(Connection c, Objective o, Instant now) throws SQLException {
    long t = now.toEpochMilli();
    String sql =
        "SELECT MIN(visible_at) FROM redrive_messages WHERE queue = ? AND state = 'READY'"
            + " AND visible_at <= ?"
            + (o.type() == null ? "" : " AND type = ?")
            + (o.stream() == null ? "" : " AND stream = ?");
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      ps.setString(i++, o.queue());
      ps.setLong(i++, t);
      if (o.type() != null) {
        ps.setString(i++, o.type());
      }
      if (o.stream() != null) {
        ps.setString(i, o.stream());
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long v = rs.getLong(1);
        return rs.wasNull() ? Duration.ZERO : Duration.ofMillis(Math.max(0, t - v));
      }
    }
  }

  /** Deletes the counts of minutes before {@code before}; returns the rows deleted. */
  int deleteOlder(Connection c, Instant before) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_objective_minutes WHERE minute < ?")) {
      ps.setLong(1, minuteOf(before));
      return ps.executeUpdate();
    }
  }
}
