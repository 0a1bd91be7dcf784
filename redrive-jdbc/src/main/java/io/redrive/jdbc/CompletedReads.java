package io.redrive.jdbc;

import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the stories completed messages keep ({@link CompletedStories}): one by id, with its
 * history, and a queue's, newest first. A record the completion window alone keeps is no story and
 * is not shown; neither is a story past its {@code kept_until} that the sweep has not reached.
 */
final class CompletedReads {
  private static final String COLUMNS =
      "k.message_id, k.queue, k.type, k.payload, k.headers, k.stream, k.attempts, k.progress,"
          + " k.enqueued_at, k.worker, k.leased_at, k.completed_at, k.source_id, k.source_queue,"
          + " k.dedupe_key, q.max_attempts, k.priority, k.limit_key";

  private static final String FROM =
      " FROM redrive_completions k LEFT JOIN redrive_queues q ON q.name = k.queue"
          + " WHERE k.kept_until IS NOT NULL AND k.kept_until >= ?";

  private final HistoryRows history;
  private final SqlDialect dialect;

  CompletedReads(HistoryRows history, SqlDialect dialect) {
    this.history = history;
    this.dialect = dialect;
  }

  /** The kept story of completed message {@code id}, with every attempt, or empty. */
  Optional<Message> find(Connection c, String id, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + COLUMNS + FROM + " AND k.message_id = ?")) {
      ps.setLong(1, now.toEpochMilli());
      ps.setString(2, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        Message m = map(rs);
        List<HistoryEntry> story = new ArrayList<>(history.read(c, id));
        story.add(
            new HistoryEntry(
                m.attempts(),
                Outcome.COMPLETED,
                m.leasedBy(),
                leasedAt(rs),
                m.completedAt(),
                null,
                null));
        return Optional.of(withHistory(m, story));
      }
    }
  }

  /**
   * A page of {@code q.queue()}'s kept completed messages, newest first; the type, dedupe key,
   * stream and attempts filters apply (the others name dead messages, so match none).
   */
  MessagePage list(Connection c, MessageQuery q, Instant now) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + FROM + " AND k.queue = ?");
    List<Object> args = new ArrayList<>(List.of(now.toEpochMilli(), q.queue()));
    if (q.deadReason() != null || q.fingerprint() != null || q.lastFailureReason() != null) {
      sql.append(" AND 1 = 0");
    }
    MessageListing.columnFilters("k", q, sql, args);
    if (q.payloadField() != null) {
      // The dialect writes its test for a message row (alias m); a kept story has the same text.
      StringBuilder test = new StringBuilder();
      dialect.payloadFieldEquals(c, q.payloadField(), test, args);
      sql.append(" AND ").append(test.toString().replace("m.payload", "k.payload"));
    }
    if (q.after() != null) {
      Cursor at = Cursor.parse(q.after());
      sql.append(" AND (k.completed_at < ? OR (k.completed_at = ? AND k.message_id < ?))");
      args.add(at.completedAt());
      args.add(at.completedAt());
      args.add(at.id());
    }
    sql.append(" ORDER BY k.completed_at DESC, k.message_id DESC LIMIT ?");
    args.add(q.limit() + 1);
    List<Message> rows = new ArrayList<>();
    boolean more = false;
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      Inspecting.bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (rows.size() == q.limit()) {
            more = true;
            break;
          }
          rows.add(map(rs));
        }
      }
    }
    Map<String, HistoryEntry> failures =
        history.lastFailures(c, rows.stream().map(Message::id).toList());
    List<Message> out = new ArrayList<>(rows.size());
    for (Message m : rows) {
      HistoryEntry last = failures.get(m.id());
      out.add(last == null ? m : withLastError(m, last));
    }
    Message tail = out.isEmpty() ? null : out.get(out.size() - 1);
    return new MessagePage(
        out, more ? new Cursor(tail.completedAt().toEpochMilli(), tail.id()).text() : null);
  }

  /** Where a page of completed messages ends: its last completion time and id. */
  private record Cursor(long completedAt, String id) {
    String text() {
      return completedAt + "." + id;
    }

    static Cursor parse(String text) {
      int dot = text.indexOf('.');
      try {
        if (dot > 0 && dot < text.length() - 1) {
          return new Cursor(Long.parseLong(text.substring(0, dot)), text.substring(dot + 1));
        }
      } catch (NumberFormatException e) {
        // answered below
      }
      throw new IllegalArgumentException(
          "after: invalid page cursor \"" + text + "\" (use the value of a page's next)");
    }
  }

  private static Instant leasedAt(ResultSet rs) throws SQLException {
    long at = rs.getLong("leased_at");
    return rs.wasNull() ? null : Instant.ofEpochMilli(at);
  }

  private static Message map(ResultSet rs) throws SQLException {
    Instant completed = Instant.ofEpochMilli(rs.getLong("completed_at"));
    long enqueued = rs.getLong("enqueued_at");
    return new Message(
        rs.getString("message_id"),
        rs.getString("queue"),
        rs.getString("type"),
        rs.getString("payload"),
        Json.headers(rs.getString("headers")),
        rs.getString("stream"),
        MessageState.COMPLETED,
        rs.getInt("attempts"),
        rs.getInt("max_attempts"),
        rs.getLong("progress"),
        Instant.ofEpochMilli(enqueued),
        completed,
        null,
        rs.getString("worker"),
        null,
        null,
        completed,
        rs.getString("source_id"),
        rs.getString("source_queue"),
        rs.getString("dedupe_key"),
        null,
        List.of(),
        null,
        rs.getInt("priority"),
        rs.getString("limit_key"),
        null); // a unique key is held only while waiting
  }

  private static Message withHistory(Message m, List<HistoryEntry> story) {
    return copy(m, Message.lastErrorOf(story), List.copyOf(story));
  }

  private static Message withLastError(Message m, HistoryEntry last) {
    return copy(m, last.failure(), m.history());
  }

  private static Message copy(
      Message m, io.redrive.failure.FailureRecord last, List<HistoryEntry> h) {
    return new Message(
        m.id(),
        m.queue(),
        m.type(),
        m.payload(),
        m.headers(),
        m.stream(),
        m.state(),
        m.attempts(),
        m.maxAttempts(),
        m.progress(),
        m.enqueuedAt(),
        m.visibleAt(),
        m.expireAt(),
        m.leasedBy(),
        m.deadReason(),
        m.deadAt(),
        m.completedAt(),
        m.sourceId(),
        m.sourceQueue(),
        m.dedupeKey(),
        last,
        h,
        m.sourceAttempts(),
        m.priority(),
        m.limitKey(),
        m.uniqueKey());
  }
}
