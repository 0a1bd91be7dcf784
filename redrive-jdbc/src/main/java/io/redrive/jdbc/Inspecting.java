package io.redrive.jdbc;

import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.LeaseHolder;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageLink;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueueStats;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Read-only views: one message with its story, filtered pages, and queue stats. */
final class Inspecting {
  private final QueueRows queues;
  private final HistoryRows history;
  private final MessageListing listing;
  private final CompletedReads completed;
  private final Whereabouts whereabouts = new Whereabouts();

  Inspecting(QueueRows queues, HistoryRows history, SqlDialect dialect) {
    this.queues = queues;
    this.history = history;
    this.listing = new MessageListing(queues, history, dialect);
    this.completed = new CompletedReads(history, dialect);
  }

  Optional<Message> find(Connection c, String id, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + MessageRow.COLUMNS
                + ", q.max_attempts, m.unique_key FROM redrive_messages m"
                + " JOIN redrive_queues q ON q.name = m.queue WHERE m.id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return completed.find(c, id, now); // gone, unless its queue kept its story
        }
        MessageRow row = MessageRow.map(rs);
        int max = rs.getInt("max_attempts");
        List<HistoryEntry> entries = new ArrayList<>(history.read(c, id));
        if (row.leased()) {
          entries.add(
              new HistoryEntry(
                  row.attempts(),
                  Outcome.LEASED,
                  row.leasedBy(),
                  row.leasedAt() == null ? null : Instant.ofEpochMilli(row.leasedAt()),
                  null,
                  null,
                  "lease until " + Instant.ofEpochMilli(row.visibleAt())));
        }
        return Optional.of(
            toMessage(
                row,
                max,
                now,
                Message.lastErrorOf(entries),
                List.copyOf(entries),
                Message.sourceAttemptsOf(row.queue(), row.sourceQueue(), entries),
                UniqueKeys.held(row, rs.getString("unique_key"))));
      }
    }
  }

  Optional<String> queueOf(Connection c, String id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT queue FROM redrive_messages WHERE id = ?")) {
      ps.setString(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /** The message {@code id} and the copies that lead from it (see {@code Store.findLinks}). */
  List<MessageLink> links(Connection c, String id) throws SQLException {
    return whereabouts.links(c, id);
  }

  /** Ids starting with {@code prefix}, in any queue (see {@link IdPrefixes}). */
  List<String> idsByPrefix(Connection c, String prefix, int limit) throws SQLException {
    return IdPrefixes.find(c, prefix, null, limit);
  }

  /** Ids starting with {@code prefix} in {@code queue} (see {@link IdPrefixes}). */
  List<String> idsByPrefix(Connection c, String prefix, String queue, int limit)
      throws SQLException {
    return IdPrefixes.find(c, prefix, queue, limit);
  }

  MessagePage list(Connection c, MessageQuery q, Instant now) throws SQLException {
    if (q.states() != null && q.states().contains(MessageState.COMPLETED)) {
      queues.require(c, q.queue(), false);
      if (q.states().size() > 1) {
        throw new IllegalArgumentException(
            "state: COMPLETED is listed on its own (completed messages are kept apart, newest"
                + " first), not with "
                + q.states());
      }
      return completed.list(c, q, now);
    }
    return listing.list(c, q, now);
  }

  List<LeaseHolder> leaseHolders(Connection c, String queue, Instant now) throws SQLException {
    queues.require(c, queue, false);
    return whereabouts.leaseHolders(c, queue, now);
  }

  QueueStats stats(Connection c, String queue, Instant now) throws SQLException {
    queues.require(c, queue, false);
    long t = now.toEpochMilli();
    long ready = 0;
    long scheduled = 0;
    long leased = 0;
    long leaseExpired = 0;
    long dead = 0;
    Instant nextScheduled = null;
    Instant latestScheduled = null;
    Duration oldestReadyAge = null;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT"
                + " SUM(CASE WHEN state = 'READY' AND visible_at <= ? THEN 1 ELSE 0 END),"
                + " SUM(CASE WHEN state = 'READY' AND visible_at > ? THEN 1 ELSE 0 END),"
                + " SUM(CASE WHEN state = 'LEASED' AND visible_at > ? THEN 1 ELSE 0 END),"
                + " SUM(CASE WHEN state = 'LEASED' AND visible_at <= ? THEN 1 ELSE 0 END),"
                + " SUM(CASE WHEN state = 'DEAD' THEN 1 ELSE 0 END),"
                + " MIN(CASE WHEN state = 'READY' AND visible_at > ? THEN visible_at END),"
                + " MAX(CASE WHEN state = 'READY' AND visible_at > ? THEN visible_at END),"
                + " MIN(CASE WHEN state = 'READY' AND visible_at <= ? THEN visible_at END)"
                + " FROM redrive_messages WHERE queue = ?")) {
      for (int i = 1; i <= 7; i++) {
        ps.setLong(i, t);
      }
      ps.setString(8, queue);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        ready = rs.getLong(1);
        scheduled = rs.getLong(2);
        leased = rs.getLong(3);
        leaseExpired = rs.getLong(4);
        dead = rs.getLong(5);
        long v = rs.getLong(6);
        nextScheduled = rs.wasNull() ? null : Instant.ofEpochMilli(v);
        v = rs.getLong(7);
        latestScheduled = rs.wasNull() ? null : Instant.ofEpochMilli(v);
        v = rs.getLong(8);
        oldestReadyAge = rs.wasNull() ? null : Duration.ofMillis(Math.max(0, t - v));
      }
    }
    Map<Integer, Long> attempts = new TreeMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT attempts, COUNT(*) FROM redrive_messages WHERE queue = ?"
                + " GROUP BY attempts ORDER BY attempts")) {
      ps.setString(1, queue);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          attempts.put(rs.getInt(1), rs.getLong(2));
        }
      }
    }
    Map<String, Long> deadReasons =
        counts(
            c,
            "SELECT dead_reason, COUNT(*) FROM redrive_messages WHERE queue = ?"
                + " AND state = 'DEAD' AND dead_reason IS NOT NULL GROUP BY dead_reason"
                + " ORDER BY dead_reason",
            queue);
    Map<String, Long> failureReasons =
        counts(
            c,
            "SELECT h.reason, COUNT(*) FROM redrive_history h JOIN redrive_messages m"
                + " ON m.id = h.message_id WHERE m.queue = ? AND h.reason IS NOT NULL"
                + " GROUP BY h.reason ORDER BY h.reason",
            queue);
    return new QueueStats(
        queue,
        ready,
        scheduled,
        leased,
        leaseExpired,
        dead,
        attempts,
        deadReasons,
        failureReasons,
        nextScheduled,
        latestScheduled,
        oldestReadyAge);
  }

  private static Map<String, Long> counts(Connection c, String sql, String queue)
      throws SQLException {
    Map<String, Long> out = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, queue);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return out;
  }

  static Message toMessage(
      MessageRow row,
      int maxAttempts,
      Instant now,
      FailureRecord lastError,
      List<HistoryEntry> h,
      Integer sourceAttempts) {
    return toMessage(row, maxAttempts, now, lastError, h, sourceAttempts, null);
  }

  /** As above, with the unique key the message holds ({@link UniqueKeys#held}), or null. */
  static Message toMessage(
      MessageRow row,
      int maxAttempts,
      Instant now,
      FailureRecord lastError,
      List<HistoryEntry> h,
      Integer sourceAttempts,
      String uniqueKey) {
    MessageState state =
        switch (row.state()) {
          case "LEASED" -> MessageState.LEASED;
          case "DEAD" -> MessageState.DEAD;
          default ->
              row.visibleAt() > now.toEpochMilli() ? MessageState.SCHEDULED : MessageState.READY;
        };
    return new Message(
        row.id(),
        row.queue(),
        row.type(),
        row.payload(),
        Json.headers(row.headers()),
        row.stream(),
        state,
        row.attempts(),
        maxAttempts,
        row.progress(),
        Instant.ofEpochMilli(row.enqueuedAt()),
        Instant.ofEpochMilli(row.visibleAt()),
        row.expireAt() == null ? null : Instant.ofEpochMilli(row.expireAt()),
        row.leased() ? row.leasedBy() : null,
        row.deadReason() == null ? null : FailureReason.valueOf(row.deadReason()),
        row.deadAt() == null ? null : Instant.ofEpochMilli(row.deadAt()),
        null,
        row.sourceId(),
        row.sourceQueue(),
        row.dedupeKey(),
        lastError,
        h,
        sourceAttempts,
        row.priority(),
        row.limitKey(),
        uniqueKey);
  }

  static long cursor(String after) {
    try {
      return Long.parseLong(after);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "after: invalid page cursor \"" + after + "\" (use the value of a page's next)");
    }
  }

  static void bind(PreparedStatement ps, List<Object> args) throws SQLException {
    for (int i = 0; i < args.size(); i++) {
      Object a = args.get(i);
      if (a instanceof Long l) {
        ps.setLong(i + 1, l);
      } else if (a instanceof Integer n) {
        ps.setInt(i + 1, n);
      } else {
        ps.setString(i + 1, (String) a);
      }
    }
  }
}
