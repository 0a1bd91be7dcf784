package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SQL for {@code redrive_completions}: what a completed message leaves behind for the completion
 * window, so a repeated complete and a repeated enqueue of it are recognised after it is gone.
 */
final class CompletionRows {
  private final SqlDialect dialect;

  CompletionRows(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** Whether a completion window keeps anything at all (null, zero and negative do not). */
  static boolean remembers(Duration completionWindow) {
    return completionWindow != null && !completionWindow.isZero() && !completionWindow.isNegative();
  }

  /** A completed message: its lease nonce, dedupe key and times. */
  record Completion(
      String messageId,
      String queue,
      String leaseToken,
      String dedupeKey,
      Long leasedAt,
      long completedAt) {}

  /** The table and the columns a completion is written to, in {@link Completion}'s order. */
  static final String INTO =
      "redrive_completions (message_id, queue, lease_token, dedupe_key, leased_at, completed_at)";

  void insertAll(Connection c, Collection<Completion> rows) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("INSERT INTO " + INTO + " VALUES (?, ?, ?, ?, ?, ?)")) {
      for (Completion r : rows) {
        ps.setString(1, r.messageId());
        ps.setString(2, r.queue());
        ps.setString(3, r.leaseToken());
        ps.setString(4, r.dedupeKey());
        if (r.leasedAt() == null) {
          ps.setNull(5, Types.BIGINT);
        } else {
          ps.setLong(5, r.leasedAt());
        }
        ps.setLong(6, r.completedAt());
        if (rows.size() == 1) {
          ps.executeUpdate();
          return;
        }
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** The completions of these messages recorded at or after {@code since}, by message id. */
  Map<String, Completion> find(Connection c, Collection<String> messageIds, long since)
      throws SQLException {
    Map<String, Completion> out = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT message_id, queue, lease_token, dedupe_key, leased_at, completed_at"
                + " FROM redrive_completions WHERE message_id "
                + dialect.in(messageIds.size())
                + " AND completed_at >= ?")) {
      int next = dialect.bindIn(ps, 1, messageIds);
      ps.setLong(next, since);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long leasedAt = rs.getLong(5);
          Long leased = rs.wasNull() ? null : leasedAt;
          Completion r =
              new Completion(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  leased,
                  rs.getLong(6));
          out.put(r.messageId(), r);
        }
      }
    }
    return out;
  }

  Optional<Completion> find(Connection c, String messageId, long since) throws SQLException {
    return Optional.ofNullable(find(c, List.of(messageId), since).get(messageId));
  }

  /**
   * The message completed at or after {@code since} in {@code queue} with each of these dedupe
   * keys, by key (the latest when a key was completed more than once).
   */
  Map<String, String> idsByDedupeKey(
      Connection c, String queue, Collection<String> keys, long since) throws SQLException {
    Map<String, String> out = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT dedupe_key, message_id FROM redrive_completions WHERE queue = ?"
                + " AND dedupe_key "
                + dialect.in(keys.size())
                + " AND completed_at >= ? ORDER BY completed_at")) {
      ps.setString(1, queue);
      int next = dialect.bindIn(ps, 2, keys);
      ps.setLong(next, since);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return out;
  }

  /** Forgets a deleted queue's completions, so a queue made again under its name starts clean. */
  void deleteQueue(Connection c, String queue) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_history WHERE message_id IN (SELECT message_id FROM"
                + " redrive_completions WHERE queue = ? AND kept_until IS NOT NULL)")) {
      ps.setString(1, queue); // the earlier attempts of its kept completed messages
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_completions WHERE queue = ?")) {
      ps.setString(1, queue);
      ps.executeUpdate();
    }
  }
}
