package io.redrive.jdbc.workflow;

import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.HistoryRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * The two writes every workflow statement shares: appending history and inserting an inbox row.
 * Stateless; entered by whichever thread runs the caller's transaction.
 */
final class WorkflowRows {
  private WorkflowRows() {}

  /** Appends {@code events} to the execution's history, continuing it without a gap. */
  static void appendHistory(Connection c, String instanceId, int execution, List<HistoryRow> events)
      throws SQLException {
    if (events.isEmpty()) {
      return;
    }
    int stored;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT COALESCE(MAX(event_id), 0) FROM redrive_wf_history"
                + " WHERE instance_id = ? AND execution_id = ?")) {
      ps.setString(1, instanceId);
      ps.setInt(2, execution);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        stored = rs.getInt(1);
      }
    }
    int first = events.get(0).eventId();
    if (first != stored + 1) {
      throw new IllegalArgumentException(
          "history: the turn appends from event "
              + first
              + " but execution "
              + execution
              + " of \""
              + instanceId
              + "\" has "
              + stored
              + " events; the next must be "
              + (stored + 1));
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_history (instance_id, execution_id, event_id, kind, seq,"
                + " name, data, turn, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (HistoryRow e : events) {
        ps.setString(1, instanceId);
        ps.setInt(2, execution);
        ps.setInt(3, e.eventId());
        ps.setString(4, e.kind());
        Sql.setLong(ps, 5, e.seq());
        ps.setString(6, e.name());
        ps.setString(7, e.data());
        ps.setInt(8, e.turn());
        ps.setLong(9, e.at().toEpochMilli());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * One inbox row, written only if its instance exists (a parent deleted meanwhile gets nothing)
   * and its dedupe key is not in that inbox yet.
   */
  static boolean insertInbox(Connection c, NewInboxRow row, long now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_inbox (instance_id, execution_id, kind, ref_seq, name, data,"
                + " visible_at, enqueued_at, dedupe_key) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?"
                + " WHERE EXISTS (SELECT 1 FROM redrive_wf_instances WHERE id = ?)"
                + " ON CONFLICT DO NOTHING")) {
      ps.setString(1, row.instanceId());
      if (row.executionId() == null) {
        ps.setNull(2, Types.INTEGER);
      } else {
        ps.setInt(2, row.executionId());
      }
      ps.setString(3, row.kind());
      Sql.setLong(ps, 4, row.refSeq());
      ps.setString(5, row.name());
      ps.setString(6, row.data());
      ps.setLong(7, row.visibleAt().toEpochMilli());
      ps.setLong(8, now);
      ps.setString(9, row.dedupeKey());
      ps.setString(10, row.instanceId());
      return ps.executeUpdate() > 0;
    }
  }
}
