package io.redrive.jdbc.workflow;

import io.redrive.store.workflow.HistoryRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Appends to an execution's history: without a gap or an overlap, and a turn's events in one
 * statement (up to {@link #ROWS_PER_INSERT} rows each; the statement texts stay few, so both stores
 * keep them prepared).
 */
final class HistoryAppends {
  static final int ROWS_PER_INSERT = 64;

  private static final String COLUMNS =
      "INSERT INTO redrive_wf_history (instance_id, execution_id, event_id, kind, seq, name, data,"
          + " turn, at) VALUES ";
  private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private HistoryAppends() {}

  /** The events execution {@code execution} holds now (read; a commit knows it from its update). */
  static int storedEvents(Connection c, String instanceId, int execution) throws SQLException {
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

  /**
   * Appends {@code events} after the {@code stored} events of the execution.
   *
   * @throws IllegalArgumentException when they do not continue it (the caller's transaction then
   *     writes nothing)
   */
  static void append(
      Connection c, String instanceId, int execution, int stored, List<HistoryRow> events)
      throws SQLException {
    if (events.isEmpty()) {
      return;
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
    for (int from = 0; from < events.size(); from += ROWS_PER_INSERT) {
      insert(
          c,
          instanceId,
          execution,
          events.subList(from, Math.min(events.size(), from + ROWS_PER_INSERT)));
    }
  }

  private static void insert(Connection c, String instanceId, int execution, List<HistoryRow> rows)
      throws SQLException {
    StringBuilder sql = new StringBuilder(COLUMNS);
    for (int i = 0; i < rows.size(); i++) {
      sql.append(i == 0 ? ROW : ", " + ROW);
    }
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      int i = 1;
      for (HistoryRow e : rows) {
        ps.setString(i++, instanceId);
        ps.setInt(i++, execution);
        ps.setInt(i++, e.eventId());
        ps.setString(i++, e.kind());
        Sql.setLong(ps, i++, e.seq());
        ps.setString(i++, e.name());
        ps.setString(i++, e.data());
        ps.setInt(i++, e.turn());
        ps.setLong(i++, e.at().toEpochMilli());
      }
      ps.executeUpdate();
    }
  }
}
