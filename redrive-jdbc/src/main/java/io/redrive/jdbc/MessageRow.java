package io.redrive.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;

/** One row of {@code redrive_messages}, as read inside a transaction. Times are epoch millis. */
record MessageRow(
    long seq,
    String id,
    String queue,
    String type,
    String payload,
    String headers,
    String stream,
    String state,
    int attempts,
    long progress,
    long enqueuedAt,
    long visibleAt,
    Long expireAt,
    String leaseToken,
    String leasedBy,
    Long leasedAt,
    String deadReason,
    Long deadAt,
    String sourceId,
    String sourceQueue,
    String dedupeKey) {

  static final String COLUMNS =
      "m.seq, m.id, m.queue, m.type, m.payload, m.headers, m.stream, m.state, m.attempts,"
          + " m.progress, m.enqueued_at, m.visible_at, m.expire_at, m.lease_token, m.leased_by,"
          + " m.leased_at, m.dead_reason, m.dead_at, m.source_id, m.source_queue, m.dedupe_key";

  static MessageRow map(ResultSet rs) throws SQLException {
    return new MessageRow(
        rs.getLong("seq"),
        rs.getString("id"),
        rs.getString("queue"),
        rs.getString("type"),
        rs.getString("payload"),
        rs.getString("headers"),
        rs.getString("stream"),
        rs.getString("state"),
        rs.getInt("attempts"),
        rs.getLong("progress"),
        rs.getLong("enqueued_at"),
        rs.getLong("visible_at"),
        nullableLong(rs, "expire_at"),
        rs.getString("lease_token"),
        rs.getString("leased_by"),
        nullableLong(rs, "leased_at"),
        rs.getString("dead_reason"),
        nullableLong(rs, "dead_at"),
        rs.getString("source_id"),
        rs.getString("source_queue"),
        rs.getString("dedupe_key"));
  }

  static Long nullableLong(ResultSet rs, String column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

  /** This row with {@code bits} OR-merged into its progress. */
  MessageRow withProgress(long bits) {
    return new MessageRow(
        seq,
        id,
        queue,
        type,
        payload,
        headers,
        stream,
        state,
        attempts,
        progress | bits,
        enqueuedAt,
        visibleAt,
        expireAt,
        leaseToken,
        leasedBy,
        leasedAt,
        deadReason,
        deadAt,
        sourceId,
        sourceQueue,
        dedupeKey);
  }

  boolean leased() {
    return "LEASED".equals(state);
  }

  boolean dead() {
    return "DEAD".equals(state);
  }
}
