package io.redrive.jdbc;

import io.redrive.schedule.CatchUp;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleInfo;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The statements of {@code redrive_schedules}: one row per schedule, read and written whole. */
final class ScheduleRows {
  private static final String COLUMNS =
      "s.name, s.spec_kind, s.spec, s.zone, s.anchor_at, s.target, s.jitter_ms, s.catch_up,"
          + " s.paused, s.next_due_at, s.last_due_at, s.last_fired_at, s.skipped, s.created_at,"
          + " s.updated_at";

  private final SqlDialect dialect;

  ScheduleRows(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** The schedule, locked for the transaction when {@code lock} (PostgreSQL). */
  Optional<ScheduleInfo> find(Connection c, String name, boolean lock) throws SQLException {
    String sql =
        "SELECT "
            + COLUMNS
            + " FROM redrive_schedules s WHERE s.name = ? "
            + (lock ? dialect.lockRows("s") : "");
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(read(rs)) : Optional.empty();
      }
    }
  }

  List<ScheduleInfo> list(Connection c) throws SQLException {
    List<ScheduleInfo> out = new ArrayList<>();
    try (PreparedStatement ps =
            c.prepareStatement("SELECT " + COLUMNS + " FROM redrive_schedules s ORDER BY s.name");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(read(rs));
      }
    }
    return out;
  }

  /** One schedule due at {@code now}, locked, skipping those another transaction holds. */
  Optional<ScheduleInfo> claimDue(Connection c, Instant now) throws SQLException {
    String sql =
        "SELECT "
            + COLUMNS
            + " FROM redrive_schedules s WHERE NOT s.paused AND s.next_due_at <= ?"
            + " ORDER BY s.next_due_at LIMIT 1 "
            + dialect.lockRowsSkipLocked("s");
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, now.toEpochMilli());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(read(rs)) : Optional.empty();
      }
    }
  }

  Optional<Instant> nextDueAt(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT MIN(next_due_at) FROM redrive_schedules WHERE NOT paused"
                    + " AND next_due_at IS NOT NULL");
        ResultSet rs = ps.executeQuery()) {
      long at = rs.next() ? rs.getLong(1) : 0;
      return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(at));
    }
  }

  void insert(Connection c, ScheduleInfo s) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_schedules (spec_kind, spec, zone, anchor_at, target, jitter_ms,"
                + " catch_up, paused, next_due_at, last_due_at, last_fired_at, skipped,"
                + " created_at, updated_at, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " ?, ?)")) {
      bind(ps, s);
      ps.executeUpdate();
    }
  }

  void update(Connection c, ScheduleInfo s) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_schedules SET spec_kind = ?, spec = ?, zone = ?, anchor_at = ?,"
                + " target = ?, jitter_ms = ?, catch_up = ?, paused = ?, next_due_at = ?,"
                + " last_due_at = ?, last_fired_at = ?, skipped = ?, created_at = ?,"
                + " updated_at = ? WHERE name = ?")) {
      bind(ps, s);
      ps.executeUpdate();
    }
  }

  boolean delete(Connection c, String name) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_schedules WHERE name = ?")) {
      ps.setString(1, name);
      return ps.executeUpdate() > 0;
    }
  }

  private static void bind(PreparedStatement ps, ScheduleInfo s) throws SQLException {
    Schedule d = s.schedule();
    ps.setString(1, ScheduleCodec.kind(d.spec()));
    ps.setString(2, ScheduleCodec.text(d.spec()));
    ps.setString(3, ScheduleCodec.zone(d.spec()));
    ps.setLong(4, s.anchor().toEpochMilli());
    ps.setString(5, ScheduleCodec.target(d.target()));
    ps.setLong(6, d.jitter().toMillis());
    ps.setString(7, d.catchUp().toString());
    ps.setBoolean(8, d.paused());
    millis(ps, 9, s.nextDueAt());
    millis(ps, 10, s.lastDueAt());
    millis(ps, 11, s.lastFiredAt());
    ps.setLong(12, s.skipped());
    ps.setLong(13, s.createdAt().toEpochMilli());
    ps.setLong(14, s.updatedAt().toEpochMilli());
    ps.setString(15, d.name());
  }

  private static void millis(PreparedStatement ps, int at, Instant value) throws SQLException {
    if (value == null) {
      ps.setNull(at, Types.BIGINT);
    } else {
      ps.setLong(at, value.toEpochMilli());
    }
  }

  private static ScheduleInfo read(ResultSet rs) throws SQLException {
    Schedule schedule =
        new Schedule(
            rs.getString(1),
            ScheduleCodec.spec(rs.getString(2), rs.getString(3), rs.getString(4)),
            ScheduleCodec.target(rs.getString(6)),
            Duration.ofMillis(rs.getLong(7)),
            CatchUp.parse(rs.getString(8)),
            rs.getBoolean(9));
    return new ScheduleInfo(
        schedule,
        Instant.ofEpochMilli(rs.getLong(5)),
        instant(rs, 10),
        instant(rs, 11),
        instant(rs, 12),
        rs.getLong(13),
        Instant.ofEpochMilli(rs.getLong(14)),
        Instant.ofEpochMilli(rs.getLong(15)));
  }

  private static Instant instant(ResultSet rs, int at) throws SQLException {
    long v = rs.getLong(at);
    return rs.wasNull() ? null : Instant.ofEpochMilli(v);
  }
}
