package io.redrive.jdbc.workflow;

import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.TurnRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of an instance's rows (inbox, history, activity links, turn rows), shared by leases and
 * operations.
 */
final class WorkflowReads {
  private WorkflowReads() {}

  /** The instance's inbox rows visible at {@code now}, oldest first, at most {@code max}. */
  static List<InboxRow> inbox(Connection c, String id, long now, int max) throws SQLException {
    List<InboxRow> rows = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT seq, execution_id, kind, ref_seq, name, data, visible_at, enqueued_at"
                + " FROM redrive_wf_inbox WHERE instance_id = ? AND visible_at <= ?"
                + " ORDER BY seq LIMIT ?")) {
      ps.setString(1, id);
      ps.setLong(2, now);
      ps.setInt(3, max);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int execution = rs.getInt(2);
          Integer executionId = rs.wasNull() ? null : execution;
          long ref = rs.getLong(4);
          Long refSeq = rs.wasNull() ? null : ref;
          String kind = rs.getString(3);
          String data = rs.getString(6);
          // The result is read by the turn thread that asks, not here: leases run on one thread.
          rows.add(
              InboxRow.stored(
                  rs.getLong(1),
                  executionId,
                  kind,
                  refSeq,
                  rs.getString(5),
                  data,
                  Instant.ofEpochMilli(rs.getLong(7)),
                  Instant.ofEpochMilli(rs.getLong(8)),
                  "ACTIVITY_RESULT".equals(kind) ? WorkflowJson::readActivityResult : null));
        }
      }
    }
    return rows;
  }

  /** One execution's history, or every execution's when {@code executionId} is null. */
  static List<HistoryRow> history(Connection c, String id, Integer executionId)
      throws SQLException {
    List<HistoryRow> rows = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT execution_id, event_id, kind, seq, name, data, turn, at"
                + " FROM redrive_wf_history WHERE instance_id = ?"
                + (executionId == null ? "" : " AND execution_id = ?")
                + " ORDER BY execution_id, event_id")) {
      ps.setString(1, id);
      if (executionId != null) {
        ps.setInt(2, executionId);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long seq = rs.getLong(4);
          Long seqOrNull = rs.wasNull() ? null : seq;
          rows.add(
              new HistoryRow(
                  rs.getInt(1),
                  rs.getInt(2),
                  rs.getString(3),
                  seqOrNull,
                  rs.getString(5),
                  rs.getString(6),
                  rs.getInt(7),
                  Instant.ofEpochMilli(rs.getLong(8))));
        }
      }
    }
    return rows;
  }

  /** The instance's activities whose messages have not ended, oldest first. */
  static List<io.redrive.store.workflow.ActivityLinkRow> pendingActivities(Connection c, String id)
      throws SQLException {
    List<io.redrive.store.workflow.ActivityLinkRow> rows = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT execution_id, seq, name, message_id, queue FROM redrive_wf_activities"
                + " WHERE instance_id = ? AND status = 'PENDING' ORDER BY execution_id, seq")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              new io.redrive.store.workflow.ActivityLinkRow(
                  rs.getInt(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5)));
        }
      }
    }
    return rows;
  }

  /** The instance's turn rows, oldest first: all of them, or only those since its last commit. */
  static List<TurnRow> turnRows(Connection c, String id, boolean sinceCommit) throws SQLException {
    List<TurnRow> rows = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT t.id, t.execution_id, t.attempt, t.node, t.leased_at, t.ended_at, t.outcome,"
                + " t.reason, t.message, t.build FROM redrive_wf_turns t"
                + " JOIN redrive_wf_instances i"
                + " ON i.id = t.instance_id WHERE t.instance_id = ?"
                + (sinceCommit ? " AND t.id > i.turn_rows_seen" : "")
                + " ORDER BY t.id")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long leased = rs.getLong(5);
          Instant leasedAt = rs.wasNull() ? null : Instant.ofEpochMilli(leased);
          rows.add(
              new TurnRow(
                  rs.getLong(1),
                  rs.getInt(2),
                  rs.getInt(3),
                  rs.getString(4),
                  leasedAt,
                  Instant.ofEpochMilli(rs.getLong(6)),
                  rs.getString(7),
                  rs.getString(8),
                  rs.getString(9),
                  rs.getString(10)));
        }
      }
    }
    return rows;
  }
}
