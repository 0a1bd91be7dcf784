package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a completion leaves in {@code redrive_completions}: for a queue that keeps completed
 * messages ({@code completed_retention_ms}, else the engine's default), the message's story (what
 * it was, how it went, its earlier attempts left in {@code redrive_history}) until {@code
 * kept_until}; for the others, only the completion window's short record, and their history goes.
 * Written in the completion's own transaction: appended rows, no update of anything read hot.
 */
final class CompletedStories {
  private final CompletionRows completions;

  CompletedStories(CompletionRows completions) {
    this.completions = completions;
  }

  /**
   * The columns of {@code redrive_messages} a completion reads, in {@link Story}'s order (DELETE
   * ... RETURNING them).
   */
  static final String RETURNED =
      "id, queue, lease_token, dedupe_key, leased_at, type, attempts, enqueued_at, leased_by,"
          + " progress, payload, headers, stream, source_id, source_queue, origin_id, origin_queue,"
          + " priority, limit_key";

  /** The columns a kept story is written to, {@link #RETURNED}'s order then the two times. */
  static final String KEPT_INTO =
      "redrive_completions (message_id, queue, lease_token, dedupe_key, leased_at, type,"
          + " attempts, enqueued_at, worker, progress, payload, headers, stream, source_id,"
          + " source_queue, origin_id, origin_queue, priority, limit_key, completed_at, kept_until)";

  /** A completed message as its DELETE returned it. */
  record Story(
      String id,
      String queue,
      String leaseToken,
      String dedupeKey,
      Long leasedAt,
      String type,
      int attempts,
      long enqueuedAt,
      String worker,
      long progress,
      String payload,
      String headers,
      String stream,
      String sourceId,
      String sourceQueue,
      String originId,
      String originQueue,
      int priority,
      String limitKey) {

    /** Reads a row selected or returned as {@link #RETURNED}. */
    static Story map(ResultSet rs) throws SQLException {
      long leased = rs.getLong(5);
      Long leasedAt = rs.wasNull() ? null : leased;
      return new Story(
          rs.getString(1),
          rs.getString(2),
          rs.getString(3),
          rs.getString(4),
          leasedAt,
          rs.getString(6),
          rs.getInt(7),
          rs.getLong(8),
          rs.getString(9),
          rs.getLong(10),
          rs.getString(11),
          rs.getString(12),
          rs.getString(13),
          rs.getString(14),
          rs.getString(15),
          rs.getString(16),
          rs.getString(17),
          rs.getInt(18),
          rs.getString(19));
    }

    /**
     * A message whose queue keeps nothing, from {@code queue, leased_at, dedupe_key} read back: all
     * the window's record needs (the rest is absent).
     */
    static Story brief(String id, String leaseToken, ResultSet rs) throws SQLException {
      long leased = rs.getLong(2);
      Long leasedAt = rs.wasNull() ? null : leased;
      return new Story(
          id,
          rs.getString(1),
          leaseToken,
          rs.getString(3),
          leasedAt,
          null,
          0,
          0,
          null,
          0,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
          0,
          null);
    }

    CompletionRows.Completion completion(long completedAt) {
      return new CompletionRows.Completion(id, queue, leaseToken, dedupeKey, leasedAt, completedAt);
    }
  }

  /** The message {@code id} read as its completion would return it. */
  Story read(Connection c, String id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + RETURNED + " FROM redrive_messages WHERE id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("message " + id + " vanished under its row lock");
        }
        return Story.map(rs);
      }
    }
  }

  /** Whether any queue keeps completed messages of its own accord (one small scan of queues). */
  boolean anyQueueKeeps(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement(
                "SELECT 1 FROM redrive_queues WHERE completed_retention_ms > 0 LIMIT 1");
        ResultSet rs = ps.executeQuery()) {
      return rs.next();
    }
  }

  /** How long completed messages are kept: a queue's own setting, else the engine's default. */
  static long keepMillis(Duration queueSetting, Duration engineDefault) {
    Duration keep = queueSetting != null ? queueSetting : engineDefault;
    return keep == null ? 0 : keep.toMillis();
  }

  /**
   * The common table expressions that follow a {@code done AS (DELETE ... RETURNING }{@link
   * #RETURNED}{@code )}: drop the history of messages not kept, write the window's short record for
   * them (when {@code window}) and the whole story of those kept. Parameters, in order: the
   * engine's default retention, then (when {@code window}) completed_at, then completed_at, the
   * window for kept_until, and completed_at again; see {@link #bindAfterDone}.
   */
  static String afterDone(boolean window) {
    return ", k AS (SELECT d.*, COALESCE(q.completed_retention_ms, ?) AS keep FROM done d"
        + " LEFT JOIN redrive_queues q ON q.name = d.queue),"
        + " story AS (DELETE FROM redrive_history WHERE message_id IN"
        + " (SELECT id FROM k WHERE keep = 0)),"
        + (window
            ? " briefly AS (INSERT INTO "
                + CompletionRows.INTO
                + " SELECT id, queue, lease_token, dedupe_key, leased_at, ? FROM k WHERE keep = 0),"
            : "")
        + " kept AS (INSERT INTO "
        + KEPT_INTO
        + " SELECT "
        + RETURNED
        + ", ?, ? + GREATEST(keep, ?) FROM k WHERE keep > 0)";
  }

  /** Binds {@link #afterDone}'s parameters from {@code index}; returns the next index. */
  static int bindAfterDone(
      PreparedStatement ps, int index, long now, Duration window, Duration defaultRetention)
      throws SQLException {
    int i = index;
    ps.setLong(i++, keepMillis(null, defaultRetention));
    if (CompletionRows.remembers(window)) {
      ps.setLong(i++, now);
    }
    ps.setLong(i++, now);
    ps.setLong(i++, now);
    ps.setLong(i++, CompletionRows.remembers(window) ? window.toMillis() : 0);
    return i;
  }

  /**
   * The same as {@link #afterDone} for completions read back one by one (SQLite's row-by-row
   * delete, a workflow activity's ending): each queue's retention is read once, the history of the
   * messages not kept is deleted, and the records are written in one batch each.
   */
  void record(Connection c, List<Story> done, long now, Duration window, Duration defaultRetention)
      throws SQLException {
    record(c, done, now, window, defaultRetention, true);
  }

  /** {@link #record}; with {@code mayKeep} false no queue keeps anything and none is read. */
  void record(
      Connection c,
      List<Story> done,
      long now,
      Duration window,
      Duration defaultRetention,
      boolean mayKeep)
      throws SQLException {
    Map<String, Long> keep = mayKeep ? retentions(c, done, defaultRetention) : Map.of();
    List<Story> kept = new ArrayList<>();
    List<Story> brief = new ArrayList<>();
    for (Story s : done) {
      (keep.getOrDefault(s.queue(), 0L) > 0 ? kept : brief).add(s);
    }
    if (!brief.isEmpty()) {
      deleteHistory(c, brief.stream().map(Story::id).toList());
      if (CompletionRows.remembers(window)) {
        completions.insertAll(c, brief.stream().map(s -> s.completion(now)).toList());
      }
    }
    if (!kept.isEmpty()) {
      long windowMillis = CompletionRows.remembers(window) ? window.toMillis() : 0;
      insertKept(c, kept, now, s -> now + Math.max(keep.getOrDefault(s.queue(), 0L), windowMillis));
    }
  }

  private Map<String, Long> retentions(
      Connection c, Collection<Story> done, Duration defaultRetention) throws SQLException {
    List<String> queues = done.stream().map(Story::queue).distinct().toList();
    Map<String, Long> out = new HashMap<>();
    long fallback = keepMillis(null, defaultRetention);
    StringBuilder in = new StringBuilder();
    for (int i = 0; i < queues.size(); i++) {
      in.append(i == 0 ? "?" : ", ?");
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT name, completed_retention_ms FROM redrive_queues WHERE name IN (" + in + ")")) {
      for (int i = 0; i < queues.size(); i++) {
        ps.setString(i + 1, queues.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          long own = rs.getLong(2);
          boolean followsDefault = rs.wasNull(); // before any other column is read
          out.put(rs.getString(1), followsDefault ? fallback : own);
        }
      }
    }
    return out;
  }

  private static void insertKept(
      Connection c, List<Story> kept, long now, java.util.function.ToLongFunction<Story> until)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + KEPT_INTO
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (Story s : kept) {
        ps.setString(1, s.id());
        ps.setString(2, s.queue());
        ps.setString(3, s.leaseToken());
        ps.setString(4, s.dedupeKey());
        if (s.leasedAt() == null) {
          ps.setNull(5, Types.BIGINT);
        } else {
          ps.setLong(5, s.leasedAt());
        }
        ps.setString(6, s.type());
        ps.setInt(7, s.attempts());
        ps.setLong(8, s.enqueuedAt());
        ps.setString(9, s.worker());
        ps.setLong(10, s.progress());
        ps.setString(11, s.payload());
        ps.setString(12, s.headers());
        ps.setString(13, s.stream());
        ps.setString(14, s.sourceId());
        ps.setString(15, s.sourceQueue());
        ps.setString(16, s.originId());
        ps.setString(17, s.originQueue());
        ps.setInt(18, s.priority());
        ps.setString(19, s.limitKey());
        ps.setLong(20, now);
        ps.setLong(21, until.applyAsLong(s));
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  private static void deleteHistory(Connection c, Collection<String> ids) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_history WHERE message_id = ?")) {
      for (String id : ids) {
        ps.setString(1, id);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * Deletes up to {@code limit} records: those the window alone kept, completed before {@code
   * windowStart}, then kept stories whose time ended before {@code now}, with their history;
   * returns how many records went.
   */
  int prune(Connection c, long windowStart, long now, int limit) throws SQLException {
    int deleted;
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_completions WHERE message_id IN (SELECT message_id FROM"
                + " redrive_completions WHERE kept_until IS NULL AND completed_at < ?"
                + " ORDER BY completed_at LIMIT ?)")) {
      ps.setLong(1, windowStart);
      ps.setInt(2, limit);
      deleted = ps.executeUpdate();
    }
    if (deleted == limit) {
      return deleted;
    }
    List<String> ids = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT message_id FROM redrive_completions WHERE kept_until IS NOT NULL"
                + " AND kept_until < ? ORDER BY kept_until LIMIT ?")) {
      ps.setLong(1, now);
      ps.setInt(2, limit - deleted);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getString(1));
        }
      }
    }
    if (!ids.isEmpty()) {
      deleteHistory(c, ids);
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM redrive_completions WHERE message_id = ?")) {
        for (String id : ids) {
          ps.setString(1, id);
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    return deleted + ids.size();
  }
}
