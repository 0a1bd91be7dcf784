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
    String dedupeKey,
    int priority,
    long headStart,
    String limitKey) {

  /** The column names {@link #map} reads, in its order. */
  private static final java.util.List<String> NAMES =
      java.util.List.of(
          "seq",
          "id",
          "queue",
          "type",
          "payload",
          "headers",
          "stream",
          "state",
          "attempts",
          "progress",
          "enqueued_at",
          "visible_at",
          "expire_at",
          "lease_token",
          "leased_by",
          "leased_at",
          "dead_reason",
          "dead_at",
          "source_id",
          "source_queue",
          "dedupe_key",
          "priority",
          "head_start",
          "limit_key");

  /** The columns {@link #map} reads, in its order; every message select starts with them. */
  static final String COLUMNS = columnsOf("m");

  /** How many columns {@link #COLUMNS} names: a statement's own columns follow at this + 1. */
  static final int COLUMN_COUNT = NAMES.size();

  /** {@link #COLUMNS} of table alias {@code alias}. */
  static String columnsOf(String alias) {
    String a = alias + ".";
    return String.join(", ", NAMES.stream().map(column -> a + column).toList());
  }

  /**
   * Reads a row selected as {@code SELECT COLUMNS ...}, by position (the SQLite driver looks a name
   * up by scanning the column list on every call).
   */
  static MessageRow map(ResultSet rs) throws SQLException {
    return new MessageRow(
        rs.getLong(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getString(6),
        rs.getString(7),
        rs.getString(8),
        rs.getInt(9),
        rs.getLong(10),
        rs.getLong(11),
        rs.getLong(12),
        nullableLong(rs, 13),
        rs.getString(14),
        rs.getString(15),
        nullableLong(rs, 16),
        rs.getString(17),
        nullableLong(rs, 18),
        rs.getString(19),
        rs.getString(20),
        rs.getString(21),
        rs.getInt(22),
        rs.getLong(23),
        limitKey(rs.getString(24)));
  }

  /** A stored limit key as the message's: the empty key the limited lease path marks is none. */
  static String limitKey(String stored) {
    return stored == null || stored.isEmpty() ? null : stored;
  }

  private static Long nullableLong(ResultSet rs, int column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
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
        dedupeKey,
        priority,
        headStart,
        limitKey);
  }

  boolean leased() {
    return "LEASED".equals(state);
  }

  boolean dead() {
    return "DEAD".equals(state);
  }
}
