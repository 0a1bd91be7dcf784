package io.redrive.jdbc.workflow;

import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * The two writes every workflow statement shares: appending history and inserting an inbox row.
 * Stateless; entered by whichever thread runs the caller's transaction.
 */
final class WorkflowRows {
  private WorkflowRows() {}

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
