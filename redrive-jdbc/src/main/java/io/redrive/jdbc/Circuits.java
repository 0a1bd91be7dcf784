package io.redrive.jdbc;

import io.redrive.engine.Circuit;
import io.redrive.queue.CircuitState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * SQL for {@code redrive_circuits} (one circuit per queue and dependency) and {@code
 * redrive_circuit_changes} (its last {@link #HISTORY} changes). Written only under the queue row's
 * lock: by a failure naming the dependency ({@link CircuitFailures}), by the limited lease while a
 * circuit holds ({@link CircuitGate}) and by an operator's open or close.
 */
final class Circuits {
  /** Changes kept per circuit. */
  static final int HISTORY = 50;

  /**
   * A stored circuit.
   *
   * @param dependency what it guards
   * @param circuit its standing
   * @param types the message types that failed against it (their messages need it too)
   */
  record Stored(String dependency, Circuit circuit, Set<String> types) {
    boolean needs(String messageDependency, String type) {
      return dependency.equals(messageDependency) || types.contains(type);
    }
  }

  /** A change of a circuit's state, newest first in {@link #changes}. */
  record Change(Instant at, CircuitState state, String by) {}

  private Circuits() {}

  /** Every circuit of {@code queue}, by dependency in name order. */
  static Map<String, Stored> load(Connection c, String queue) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT dependency, state, failures, window_start, opened_at, next_probe_at, wave,"
                + " passed, types, changed_at, changed_by FROM redrive_circuits WHERE queue = ?"
                + " ORDER BY dependency")) {
      ps.setString(1, queue);
      try (ResultSet rs = ps.executeQuery()) {
        Map<String, Stored> out = new LinkedHashMap<>();
        while (rs.next()) {
          Circuit circuit =
              new Circuit(
                  CircuitState.valueOf(rs.getString(2)),
                  rs.getInt(3),
                  instant(rs, 4),
                  instant(rs, 5),
                  instant(rs, 6),
                  rs.getInt(7),
                  rs.getInt(8),
                  instant(rs, 10),
                  rs.getString(11));
          String types = rs.getString(9);
          Set<String> typeSet =
              types.isEmpty() ? new TreeSet<>() : new TreeSet<>(Arrays.asList(types.split(",")));
          out.put(rs.getString(1), new Stored(rs.getString(1), circuit, typeSet));
        }
        return out;
      }
    }
  }

  /** Writes a circuit (insert or replace). */
  static void save(Connection c, String queue, Stored s) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_circuits AS k (queue, dependency, state, failures, window_start,"
                + " opened_at, next_probe_at, wave, passed, types, changed_at, changed_by)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (queue, dependency)"
                + " DO UPDATE SET state = excluded.state, failures = excluded.failures,"
                + " window_start = excluded.window_start, opened_at = excluded.opened_at,"
                + " next_probe_at = excluded.next_probe_at, wave = excluded.wave,"
                + " passed = excluded.passed, types = excluded.types,"
                + " changed_at = excluded.changed_at, changed_by = excluded.changed_by")) {
      Circuit k = s.circuit();
      int i = 1;
      ps.setString(i++, queue);
      ps.setString(i++, s.dependency());
      ps.setString(i++, k.state().name());
      ps.setInt(i++, k.failures());
      setInstant(ps, i++, k.windowStart());
      setInstant(ps, i++, k.openedAt());
      setInstant(ps, i++, k.nextProbeAt());
      ps.setInt(i++, k.wave());
      ps.setInt(i++, k.passed());
      ps.setString(i++, String.join(",", s.types()));
      setInstant(ps, i++, k.changedAt());
      ps.setString(i, k.changedBy());
      ps.executeUpdate();
    }
  }

  /** Records a change of state, keeping the last {@link #HISTORY} of the circuit. */
  static void changed(Connection c, String queue, String dependency, Circuit k)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_circuit_changes (queue, dependency, changed_at, state,"
                + " changed_by) VALUES (?, ?, ?, ?, ?)")) {
      ps.setString(1, queue);
      ps.setString(2, dependency);
      ps.setLong(3, k.changedAt().toEpochMilli());
      ps.setString(4, k.state().name());
      ps.setString(5, k.changedBy());
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_circuit_changes WHERE queue = ? AND dependency = ?"
                + " AND changed_at < (SELECT MIN(t.changed_at) FROM (SELECT changed_at FROM"
                + " redrive_circuit_changes WHERE queue = ? AND dependency = ?"
                + " ORDER BY changed_at DESC LIMIT "
                + HISTORY
                + ") t)")) {
      ps.setString(1, queue);
      ps.setString(2, dependency);
      ps.setString(3, queue);
      ps.setString(4, dependency);
      ps.executeUpdate();
    }
  }

  /** The last changes of a circuit, newest first. */
  static List<Change> changes(Connection c, String queue, String dependency) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT changed_at, state, changed_by FROM redrive_circuit_changes"
                + " WHERE queue = ? AND dependency = ? ORDER BY changed_at DESC LIMIT "
                + HISTORY)) {
      ps.setString(1, queue);
      ps.setString(2, dependency);
      try (ResultSet rs = ps.executeQuery()) {
        List<Change> out = new java.util.ArrayList<>();
        while (rs.next()) {
          out.add(
              new Change(
                  Instant.ofEpochMilli(rs.getLong(1)),
                  CircuitState.valueOf(rs.getString(2)),
                  rs.getString(3)));
        }
        return out;
      }
    }
  }

  /**
   * Makes the queue's leases take the limited path while a circuit holds ({@code holding}), or
   * gives {@code flow_until} back to the flow limits and holds when none does.
   */
  static void route(Connection c, String queue, boolean holding, io.redrive.queue.FlowLimits limits)
      throws SQLException {
    if (!holding) {
      FlowLimitColumns.write(c, queue, limits);
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_queues SET flow_until = ? WHERE name = ?")) {
      ps.setLong(1, FlowLimitColumns.LIMITED);
      ps.setString(2, queue);
      ps.executeUpdate();
    }
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(v);
  }

  private static void setInstant(PreparedStatement ps, int i, Instant value) throws SQLException {
    if (value == null) {
      ps.setNull(i, Types.BIGINT);
    } else {
      ps.setLong(i, value.toEpochMilli());
    }
  }
}
