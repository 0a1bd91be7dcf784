package io.redrive.jdbc;

import io.redrive.store.NodeBeatParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * SQL for {@code redrive_engine_nodes}, the engine nodes' liveness rows (docs/engine.md, "Crash
 * evidence"): the timer's beat, and the one question a lease expiry asks of them. Stateless; runs
 * on the connection it is given.
 */
final class Liveness {
  private Liveness() {}

  /** One beat of {@code p.node()}; answers since when it has been continuously alive. */
  static Instant beat(Connection c, NodeBeatParams p) throws SQLException {
    long now = p.now().toEpochMilli();
    long staleBefore = p.now().minus(p.staleAfter()).toEpochMilli();
    int updated;
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_engine_nodes SET alive_since = CASE WHEN last_seen < ? THEN ?"
                + " ELSE alive_since END, last_seen = ? WHERE node_id = ?")) {
      ps.setLong(1, staleBefore);
      ps.setLong(2, now);
      ps.setLong(3, now);
      ps.setString(4, p.node());
      updated = ps.executeUpdate();
    }
    if (updated == 0) {
      // A node id is one engine's alone (random per engine), so no other writer races this insert.
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO redrive_engine_nodes (node_id, alive_since, last_seen) VALUES (?, ?, ?)")) {
        ps.setString(1, p.node());
        ps.setLong(2, now);
        ps.setLong(3, now);
        ps.executeUpdate();
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_engine_nodes WHERE last_seen < ?")) {
      ps.setLong(1, p.now().minus(p.forgetAfter()).toEpochMilli());
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement("SELECT alive_since FROM redrive_engine_nodes WHERE node_id = ?")) {
      ps.setString(1, p.node());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return Instant.ofEpochMilli(rs.getLong(1));
      }
    }
  }

  /**
   * True when some engine node was continuously alive across {@code [from, to]}: alive since {@code
   * from} or earlier and seen at {@code to} or later, or alive since {@code from} and the node
   * {@code checking} (the one leasing now, alive at this moment, which is after {@code to}; null:
   * none).
   */
  static boolean witnessed(Connection c, long from, long to, String checking) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM redrive_engine_nodes WHERE alive_since <= ?"
                + " AND (last_seen >= ? OR node_id = ?)")) {
      ps.setLong(1, from);
      ps.setLong(2, to);
      ps.setString(3, checking == null ? "" : checking);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }
}
