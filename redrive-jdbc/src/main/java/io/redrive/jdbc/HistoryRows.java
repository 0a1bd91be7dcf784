package io.redrive.jdbc;

import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL for {@code redrive_history}: finished deliveries and operator actions, oldest first. The
 * running delivery lives on the message row and is shown as a LEASED entry when read.
 */
final class HistoryRows {
  private static final String COLUMNS =
      "attempt, outcome, worker, leased_at, settled_at, reason, error_message, retryable,"
          + " max_attempts, stack_trace, poisoned_message, note";

  void insert(Connection c, String messageId, HistoryEntry e) throws SQLException {
    insertAll(c, List.of(Map.entry(messageId, e)));
  }

  /** Inserts entries (message id → entry) with one statement run per entry in one batch. */
  void insertAll(Connection c, List<Map.Entry<String, HistoryEntry>> entries) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_history (message_id, "
                + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (Map.Entry<String, HistoryEntry> entry : entries) {
        HistoryEntry e = entry.getValue();
        FailureRecord f = e.failure();
        ps.setString(1, entry.getKey());
        ps.setInt(2, e.attempt());
        ps.setString(3, e.outcome().name());
        ps.setString(4, e.worker());
        setInstant(ps, 5, e.leasedAt());
        setInstant(ps, 6, e.settledAt());
        ps.setString(7, f == null ? null : f.reason().name());
        ps.setString(8, f == null ? null : f.message());
        if (f == null) {
          ps.setNull(9, Types.BOOLEAN);
          ps.setNull(10, Types.INTEGER);
        } else {
          ps.setBoolean(9, f.retryable());
          ps.setInt(10, f.maxAttempts());
        }
        ps.setString(11, f == null ? null : f.stackTrace());
        ps.setString(12, f == null ? null : f.poisonedMessage());
        ps.setString(13, e.note());
        if (entries.size() == 1) {
          ps.executeUpdate();
          return;
        }
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** Copies a message's history to another id (dead-letter move), keeping the order. */
  void copy(Connection c, String fromId, String toId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_history (message_id, "
                + COLUMNS
                + ") SELECT ?, "
                + COLUMNS
                + " FROM redrive_history WHERE message_id = ? ORDER BY hid")) {
      ps.setString(1, toId);
      ps.setString(2, fromId);
      ps.executeUpdate();
    }
  }

  void delete(Connection c, String messageId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_history WHERE message_id = ?")) {
      ps.setString(1, messageId);
      ps.executeUpdate();
    }
  }

  /**
   * The cause of a message's death ({@link io.redrive.deadletter.Fingerprint#causeOf}): its latest
   * failure that is not POISON or EXPIRED, or null; one row read, not the whole story.
   */
  FailureRecord lastCause(Connection c, String messageId) throws SQLException {
    HistoryEntry e = lastFailures(c, List.of(messageId), true).get(messageId);
    return e == null ? null : e.failure();
  }

  /** The latest entry with a failure of each message, by message id (one query for a page). */
  Map<String, HistoryEntry> lastFailures(Connection c, List<String> messageIds)
      throws SQLException {
    return lastFailures(c, messageIds, false);
  }

  /**
   * The latest entry with a failure of each message, by message id; with {@code causesOnly}, the
   * latest whose failure can be a cause (not POISON or EXPIRED).
   */
  Map<String, HistoryEntry> lastFailures(Connection c, List<String> messageIds, boolean causesOnly)
      throws SQLException {
    Map<String, HistoryEntry> out = new HashMap<>();
    if (messageIds.isEmpty()) {
      return out;
    }
    String in = String.join(", ", Collections.nCopies(messageIds.size(), "?"));
    // Causes are read for up to 500 dead messages at a time (fingerprint fills): a correlated
    // subquery keeps both databases on the (message_id, hid) index, where the grouped IN list let
    // PostgreSQL scan the whole history table for each batch.
    String sql =
        causesOnly
            ? "SELECT h.message_id, "
                + COLUMNS.replaceAll("(\\w+)", "h.$1")
                + " FROM redrive_history h WHERE h.message_id IN ("
                + in
                + ") AND h.hid = (SELECT MAX(l.hid) FROM redrive_history l"
                + " WHERE l.message_id = h.message_id AND l.reason IS NOT NULL"
                + " AND l.reason NOT IN ('POISON', 'EXPIRED'))"
            : "SELECT message_id, "
                + COLUMNS
                + " FROM redrive_history WHERE hid IN (SELECT MAX(hid) FROM redrive_history"
                + " WHERE message_id IN ("
                + in
                + ") AND reason IS NOT NULL GROUP BY message_id)";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      for (String id : messageIds) {
        ps.setString(i++, id);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString("message_id"), map(rs));
        }
      }
    }
    return out;
  }

  /**
   * The attempt of the latest {@code DEAD_LETTERED} entry of each of {@code copyIds} (dead-letter
   * copies): the attempts each had used in its source queue when it moved. One query for a page.
   */
  Map<String, Integer> sourceAttempts(Connection c, List<String> copyIds) throws SQLException {
    Map<String, Integer> out = new HashMap<>();
    if (copyIds.isEmpty()) {
      return out;
    }
    String in = String.join(", ", Collections.nCopies(copyIds.size(), "?"));
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT message_id, attempt FROM redrive_history WHERE hid IN (SELECT MAX(hid)"
                + " FROM redrive_history WHERE message_id IN ("
                + in
                + ") AND outcome = 'DEAD_LETTERED' GROUP BY message_id)")) {
      int i = 1;
      for (String id : copyIds) {
        ps.setString(i++, id);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getInt(2));
        }
      }
    }
    return out;
  }

  List<HistoryEntry> read(Connection c, String messageId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT " + COLUMNS + " FROM redrive_history WHERE message_id = ? ORDER BY hid")) {
      ps.setString(1, messageId);
      try (ResultSet rs = ps.executeQuery()) {
        List<HistoryEntry> out = new ArrayList<>();
        while (rs.next()) {
          out.add(map(rs));
        }
        return out;
      }
    }
  }

  private static HistoryEntry map(ResultSet rs) throws SQLException {
    int attempt = rs.getInt("attempt");
    String worker = rs.getString("worker");
    Instant settledAt = instant(rs, "settled_at");
    String reason = rs.getString("reason");
    FailureRecord failure = null;
    if (reason != null) {
      boolean retryable = rs.getBoolean("retryable");
      failure =
          new FailureRecord(
              FailureReason.valueOf(reason),
              rs.getString("error_message"),
              retryable,
              attempt,
              rs.getInt("max_attempts"),
              worker,
              settledAt,
              rs.getString("stack_trace"),
              rs.getString("poisoned_message"));
    }
    return new HistoryEntry(
        attempt,
        Outcome.valueOf(rs.getString("outcome")),
        worker,
        instant(rs, "leased_at"),
        settledAt,
        failure,
        rs.getString("note"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : Instant.ofEpochMilli(v);
  }

  private static void setInstant(PreparedStatement ps, int i, Instant t) throws SQLException {
    if (t == null) {
      ps.setNull(i, Types.BIGINT);
    } else {
      ps.setLong(i, t.toEpochMilli());
    }
  }
}
