package io.redrive.jdbc;

import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.LeaseToken;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** SQL for single rows of {@code redrive_messages}: insert, locked reads, state changes. */
final class MessageRows {
  private static final String ROW_PLACEHOLDERS =
      "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /**
   * The rows of a {@code VALUES} list ({@code %s}, columns named {@code column1…} on both
   * databases) joined to their queue. The last column numbers the rows, so they are inserted (and
   * given their {@code seq}) in the order of the list, whatever order the join yields. {@code WHERE
   * true} keeps SQLite from reading a following {@code ON CONFLICT} as the join's constraint.
   */
  private static final String INTO_QUEUE =
      "SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7,"
          + " v.column8, v.column9, v.column10, v.column11,"
          + " COALESCE(v.column12, v.column10 + q.expire_after_ms), v.column13, v.column14,"
          + " v.column15, v.column16, v.column17, "
          + priorityOf("v.column18", "v.column19")
          + ", v.column20, v.column21"
          + " FROM (VALUES %s) AS v JOIN redrive_queues q ON q.name = v.column2 WHERE true"
          + " ORDER BY v.column22";

  /**
   * The priority and head start of a row joined to its queue {@code q}: a row without a priority
   * takes the queue's default, and one without a head start gets priority × the queue's aging.
   */
  static String priorityOf(String priority, String headStart) {
    String p = "COALESCE(" + priority + ", q.default_priority)";
    return p + ", COALESCE(" + headStart + ", " + p + " * q.priority_aging_ms)";
  }

  private final SqlDialect dialect;
  private final QueueKinds kinds;

  MessageRows(SqlDialect dialect, QueueKinds kinds) {
    this.dialect = dialect;
    this.kinds = kinds;
  }

  /** A locked message with its queue's policy and how its queue's kind ends messages. */
  record Locked(MessageRow row, QueuePolicy policy, QueueEndings endings) {}

  /**
   * The fields of a new row. A row joined to its queue may leave {@code priority} (its queue's
   * default) and {@code headStart} (priority × its queue's aging) null; any other row gives both.
   */
  record NewRow(
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
      String deadReason,
      Long deadAt,
      String sourceId,
      String sourceQueue,
      String dedupeKey,
      Integer priority,
      Long headStart,
      String limitKey,
      String uniqueKey) {}

  /** Stamps a dead row's fingerprint ({@link io.redrive.deadletter.Fingerprint#key()}). */
  /**
   * Marks a dead-letter copy just inserted: its group's fingerprint, and the first id of its story
   * and that id's queue (its source's own origin, or the source itself when that was an original),
   * and the seq of that first message (its place in its stream), read from the source row, which
   * the move deletes only afterwards.
   */
  void markDeadLetterCopy(Connection c, String copyId, String fingerprint, String sourceId)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET dead_fingerprint = ?, origin_id = (SELECT"
                + " COALESCE(s.origin_id, s.id) FROM redrive_messages s WHERE s.id = ?),"
                + " origin_queue = (SELECT CASE WHEN s.origin_id IS NULL THEN s.queue"
                + " ELSE s.origin_queue END FROM redrive_messages s WHERE s.id = ?),"
                // Its place in its stream, for a redrive that restores the order (StreamRepair).
                + " origin_seq = (SELECT COALESCE(s.origin_seq, s.seq) FROM redrive_messages s"
                + " WHERE s.id = ?) WHERE id = ?")) {
      ps.setString(1, fingerprint);
      ps.setString(2, sourceId);
      ps.setString(3, sourceId);
      ps.setString(4, sourceId);
      ps.setString(5, copyId);
      ps.executeUpdate();
    }
  }

  void setDeadFingerprint(Connection c, String id, String fingerprint) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_messages SET dead_fingerprint = ? WHERE id = ?")) {
      ps.setString(1, fingerprint);
      ps.setString(2, id);
      ps.executeUpdate();
    }
  }

  /**
   * Inserts a row unless it collides with a unique key (dedupe key or source id in its queue);
   * returns false on such a collision, changing nothing.
   */
  boolean insertIfAbsent(Connection c, NewRow r) throws SQLException {
    return insertAllIfAbsent(c, List.of(r), false)[0];
  }

  /**
   * Inserts rows with one multi-row statement, each unless it collides with a unique key (dedupe
   * key or source id in its queue); returns per row whether it was inserted. {@code RETURNING}
   * names the rows that went in, so a collision costs nothing extra. Rows without such keys skip
   * {@code ON CONFLICT}, whose speculative insertion cost a fifth of PostgreSQL's insert time;
   * their ids are fresh, so only a bug could make them collide, and that fails the statement.
   *
   * @param intoQueue join each row to its queue: a row whose queue does not exist is not inserted
   *     (and changes nothing), and a row without a deadline gets its queue's {@code expire_after};
   *     so an enqueue needs no separate read of its queue
   */
  boolean[] insertAllIfAbsent(Connection c, List<NewRow> rows, boolean intoQueue)
      throws SQLException {
    return insertAllIfAbsent(c, rows, intoQueue, false);
  }

  /**
   * As {@link #insertAllIfAbsent(Connection, List, boolean)}; joined to its queue, a row goes into
   * an owned queue only when the owner inserts it ({@code byOwner}). The queue's {@code
   * workflow_owned} column is data here, who may enqueue: the only owner there is.
   */
  boolean[] insertAllIfAbsent(Connection c, List<NewRow> rows, boolean intoQueue, boolean byOwner)
      throws SQLException {
    boolean keyed =
        rows.stream()
            .anyMatch(r -> r.dedupeKey() != null || r.sourceId() != null || r.uniqueKey() != null);
    boolean arrays = intoQueue && rows.size() > 1 && dialect.insertsByColumnArrays();
    StringBuilder values = new StringBuilder();
    for (int r = 0; !arrays && r < rows.size(); r++) {
      values.append(r == 0 ? "" : ", ").append(ROW_PLACEHOLDERS);
      if (intoQueue) {
        values.setLength(values.length() - 1);
        values.append(", ").append(r).append(')');
      }
    }
    java.util.Set<String> insertedIds = new java.util.HashSet<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_messages (id, queue, type, payload, headers, stream, state,"
                + " attempts, progress, enqueued_at, visible_at, expire_at, dead_reason, dead_at,"
                + " source_id, source_queue, dedupe_key, priority, head_start,"
                + " limit_key, unique_key) "
                + (intoQueue
                    ? (arrays ? ColumnArrays.INTO_QUEUE : INTO_QUEUE.replace("%s", values))
                        .replace(
                            "WHERE true", byOwner ? "WHERE true" : "WHERE NOT q.workflow_owned")
                    : "VALUES " + values)
                + (keyed ? " ON CONFLICT DO NOTHING RETURNING id" : ""))) {
      int i = 1;
      for (NewRow r : arrays ? List.<NewRow>of() : rows) {
        ps.setString(i++, r.id());
        ps.setString(i++, r.queue());
        ps.setString(i++, r.type());
        ps.setString(i++, r.payload());
        ps.setString(i++, r.headers());
        ps.setString(i++, r.stream());
        ps.setString(i++, r.state());
        ps.setInt(i++, r.attempts());
        ps.setLong(i++, r.progress());
        ps.setLong(i++, r.enqueuedAt());
        ps.setLong(i++, r.visibleAt());
        setLong(ps, i++, r.expireAt());
        ps.setString(i++, r.deadReason());
        setLong(ps, i++, r.deadAt());
        ps.setString(i++, r.sourceId());
        ps.setString(i++, r.sourceQueue());
        ps.setString(i++, r.dedupeKey());
        if (r.priority() == null) {
          ps.setNull(i++, Types.INTEGER);
        } else {
          ps.setInt(i++, r.priority());
        }
        setLong(ps, i++, r.headStart());
        ps.setString(i++, r.limitKey());
        ps.setString(i++, r.uniqueKey());
      }
      if (arrays) {
        ColumnArrays.bind(c, ps, rows);
      }
      boolean[] inserted = new boolean[rows.size()];
      if (!keyed) {
        int count = ps.executeUpdate();
        if (count != 0 && count != rows.size()) {
          // Only when a queue disappeared while joined: answer as a conflict, so it is retried.
          throw new SQLException(
              "insert found " + count + " of " + rows.size() + " rows' queues", "40001");
        }
        java.util.Arrays.fill(inserted, count != 0);
        return inserted;
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          insertedIds.add(rs.getString(1));
        }
      }
      for (int r = 0; r < rows.size(); r++) {
        inserted[r] = insertedIds.contains(rows.get(r).id());
      }
      return inserted;
    }
  }

  Optional<String> idByDedupeKey(Connection c, String queue, String key) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT id FROM redrive_messages WHERE queue = ? AND dedupe_key = ?")) {
      ps.setString(1, queue);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /** Reads and locks one message with its queue's policy. */
  Optional<Locked> lock(Connection c, String id) throws SQLException {
    return Optional.ofNullable(lockAll(c, List.of(id)).get(id));
  }

  /** Reads and locks the messages with the given ids (in id order), with their queues' policies. */
  Map<String, Locked> lockAll(Connection c, List<String> ids) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + MessageRow.COLUMNS
                + ", "
                + prefixed(QueueRows.SELECTED)
                + " FROM redrive_messages m JOIN redrive_queues q ON q.name = m.queue"
                + " WHERE m.id "
                + dialect.in(ids.size())
                + " ORDER BY m.id "
                + dialect.lockRows("m"))) {
      dialect.bindIn(ps, 1, ids);
      Map<String, Locked> out = new java.util.HashMap<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          MessageRow row = MessageRow.map(rs);
          out.put(
              row.id(),
              new Locked(
                  row, QueueRows.policy(rs), kinds.endings(rs.getBoolean("workflow_owned"))));
        }
      }
      return out;
    }
  }

  /**
   * Locks the message a token names and checks the token is its current lease: unknown message →
   * {@link LeaseNotFoundException}; any other lease or state, or a message past its deadline at
   * {@code now} (the sweep will dead-letter it as EXPIRED) → {@link LeaseLostException}.
   */
  Locked lockLeased(Connection c, LeaseToken token, Instant now) throws SQLException {
    Locked locked =
        lock(c, token.messageId()).orElseThrow(() -> new LeaseNotFoundException(token.messageId()));
    if (!holds(locked.row(), token, now)) {
      throw new LeaseLostException(token.messageId());
    }
    return locked;
  }

  /** Whether {@code token} is the current lease of {@code row} and its deadline has not passed. */
  static boolean holds(MessageRow row, LeaseToken token, Instant now) {
    return row.leased() && token.nonce().equals(row.leaseToken()) && !pastDeadline(row, now);
  }

  /** Whether the message's deadline ({@code expire_at}) is at or before {@code now}. */
  static boolean pastDeadline(MessageRow row, Instant now) {
    return row.expireAt() != null && row.expireAt() <= now.toEpochMilli();
  }

  /** Back to READY (retry, abandon, release): the lease is cleared. */
  void makeReady(Connection c, String id, long visibleAt, int attempts, long progressBits)
      throws SQLException {
    makeReadyAll(c, List.of(new ReadyAgain(id, visibleAt, attempts, progressBits)));
  }

  /** {@link #makeReady} for many rows, one statement run per row in one batch. */
  void makeReadyAll(Connection c, List<ReadyAgain> rows) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET state = 'READY', visible_at = ?, attempts = ?,"
                + " progress = progress | ?, lease_token = NULL, lease_batch = NULL,"
                + " leased_by = NULL, leased_at = NULL, dead_reason = NULL, dead_at = NULL,"
                // A message back from a lease or from DEAD gives up its unique key (UniqueKeys).
                + " unique_key = CASE WHEN state = 'READY' THEN unique_key END WHERE id = ?")) {
      for (ReadyAgain r : rows) {
        ps.setLong(1, r.visibleAt());
        ps.setInt(2, r.attempts());
        ps.setLong(3, r.progressBits());
        ps.setString(4, r.id());
        if (rows.size() == 1) {
          ps.executeUpdate();
          return;
        }
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** One row for {@link #makeReadyAll}. */
  record ReadyAgain(String id, long visibleAt, int attempts, long progressBits) {}

  void setProgress(Connection c, String id, long progressBits) throws SQLException {
    if (progressBits == 0) {
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_messages SET progress = progress | ? WHERE id = ?")) {
      ps.setLong(1, progressBits);
      ps.setString(2, id);
      ps.executeUpdate();
    }
  }

  void delete(Connection c, String id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM redrive_messages WHERE id = ?")) {
      ps.setString(1, id);
      ps.executeUpdate();
    }
  }

  /**
   * Deletes the rows with the given ids, one statement run per row (no list of parameters that
   * grows with {@code ids}); returns how many were there.
   */
  int deleteEach(Connection c, List<String> ids) throws SQLException {
    int deleted = 0;
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM redrive_messages WHERE id = ?")) {
      for (String id : ids) {
        ps.setString(1, id);
        deleted += ps.executeUpdate();
      }
    }
    return deleted;
  }

  void deleteAll(Connection c, List<String> ids) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_messages WHERE id " + dialect.in(ids.size()))) {
      dialect.bindIn(ps, 1, ids);
      ps.executeUpdate();
    }
  }

  static String prefixed(String queueColumns) {
    StringBuilder sb = new StringBuilder();
    for (String col : queueColumns.split(",")) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append("q.").append(col.trim());
    }
    return sb.toString();
  }

  static void setLong(PreparedStatement ps, int i, Long v) throws SQLException {
    if (v == null) {
      ps.setNull(i, Types.BIGINT);
    } else {
      ps.setLong(i, v);
    }
  }
}
