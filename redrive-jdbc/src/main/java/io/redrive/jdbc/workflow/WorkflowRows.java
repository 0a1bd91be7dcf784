package io.redrive.jdbc.workflow;

import io.redrive.jdbc.SqlDialect;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.HistoryRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The two writes every workflow statement shares: appending history and inserting an inbox row.
 * Stateless; entered by whichever thread runs the caller's transaction.
 */
final class WorkflowRows {
  private WorkflowRows() {}

  /**
   * Appends {@code events} to the execution's history, continuing it without a gap: where the
   * dialect writes batches in one statement, the gap check rides in it (nothing is inserted unless
   * the stored history ends right before the first event); otherwise it is read first.
   *
   * @throws IllegalArgumentException on a gap or an overlap; nothing is written
   */
  static void appendHistory(
      Connection c, SqlDialect dialect, String instanceId, int execution, List<HistoryRow> events)
      throws SQLException {
    if (events.isEmpty()) {
      return;
    }
    int first = events.get(0).eventId();
    if (dialect.batchesRowByRow()) {
      int stored = lastEventId(c, instanceId, execution);
      if (first != stored + 1) {
        throw gap(instanceId, execution, first, stored);
      }
      insertRowByRow(c, instanceId, execution, events);
      return;
    }
    List<String[]> rows = new ArrayList<>(events.size());
    for (HistoryRow e : events) {
      rows.add(
          new String[] {
            String.valueOf(e.eventId()),
            e.kind(),
            e.seq() == null ? null : String.valueOf(e.seq()),
            e.name(),
            e.data(),
            String.valueOf(e.turn()),
            String.valueOf(e.at().toEpochMilli())
          });
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_history (instance_id, execution_id, event_id, kind, seq,"
                + " name, data, turn, at) SELECT ?, ?, CAST(v.c1 AS INTEGER), v.c2,"
                + " CAST(v.c3 AS BIGINT), v.c4, v.c5, CAST(v.c6 AS INTEGER), CAST(v.c7 AS BIGINT)"
                + " FROM "
                + dialect.textRows(rows.size(), 7)
                + " WHERE (SELECT COALESCE(MAX(event_id), 0) FROM redrive_wf_history"
                + " WHERE instance_id = ? AND execution_id = ?) = ?")) {
      ps.setString(1, instanceId);
      ps.setInt(2, execution);
      int i = dialect.bindTextRows(ps, 3, rows);
      ps.setString(i++, instanceId);
      ps.setInt(i++, execution);
      ps.setInt(i, first - 1);
      if (ps.executeUpdate() == 0) {
        throw gap(instanceId, execution, first, lastEventId(c, instanceId, execution));
      }
    }
  }

  private static int lastEventId(Connection c, String instanceId, int execution)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT COALESCE(MAX(event_id), 0) FROM redrive_wf_history"
                + " WHERE instance_id = ? AND execution_id = ?")) {
      ps.setString(1, instanceId);
      ps.setInt(2, execution);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static IllegalArgumentException gap(
      String instanceId, int execution, int first, int stored) {
    return new IllegalArgumentException(
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

  private static void insertRowByRow(
      Connection c, String instanceId, int execution, List<HistoryRow> events) throws SQLException {
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
