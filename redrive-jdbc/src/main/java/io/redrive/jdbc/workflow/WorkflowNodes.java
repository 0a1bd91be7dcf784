package io.redrive.jdbc.workflow;

import io.redrive.store.workflow.NodeRow;
import io.redrive.store.workflow.PublishNodeParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The live workflow nodes (table {@code redrive_wf_nodes}): each runtime's row, written at its
 * start and on its heartbeat, deleted at its stop or once it expired. The same SQL serves both
 * dialects ({@code ON CONFLICT ... DO UPDATE} is in SQLite too). Nothing else reads or writes the
 * table.
 */
final class WorkflowNodes {
  private WorkflowNodes() {}

  /** Upserts the node's row, then deletes every row that expired at or before {@code now}. */
  static void publish(Connection c, PublishNodeParams p) throws SQLException {
    long now = p.now().toEpochMilli();
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_nodes (node_id, build_id, registrations, started_at, seen_at,"
                + " expires_at) VALUES (?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (node_id) DO UPDATE SET build_id = excluded.build_id,"
                + " registrations = excluded.registrations, started_at = excluded.started_at,"
                + " seen_at = excluded.seen_at, expires_at = excluded.expires_at")) {
      ps.setString(1, p.nodeId());
      if (p.buildId() == null) {
        ps.setNull(2, Types.VARCHAR);
      } else {
        ps.setString(2, p.buildId());
      }
      ps.setString(3, p.registrations());
      ps.setLong(4, p.startedAt().toEpochMilli());
      ps.setLong(5, now);
      ps.setLong(6, p.expiresAt().toEpochMilli());
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_wf_nodes WHERE expires_at <= ?")) {
      ps.setLong(1, now);
      ps.executeUpdate();
    }
  }

  static boolean remove(Connection c, String nodeId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_wf_nodes WHERE node_id = ?")) {
      ps.setString(1, nodeId);
      return ps.executeUpdate() > 0;
    }
  }

  static List<NodeRow> live(Connection c, Instant now) throws SQLException {
    List<NodeRow> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT node_id, build_id, registrations, started_at, seen_at, expires_at"
                + " FROM redrive_wf_nodes WHERE expires_at > ? ORDER BY node_id")) {
      ps.setLong(1, now.toEpochMilli());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(
              new NodeRow(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  Instant.ofEpochMilli(rs.getLong(4)),
                  Instant.ofEpochMilli(rs.getLong(5)),
                  Instant.ofEpochMilli(rs.getLong(6))));
        }
      }
    }
    return out;
  }
}
