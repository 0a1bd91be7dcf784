package io.redrive.jdbc;

import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A filtered page of one queue's messages, in serve order, without history: the rows in one
 * statement, then each row's latest failure for the whole page in one more (never a query per row).
 * Filters on indexed columns narrow the scan; a payload field is evaluated row by row within the
 * queue (see {@link io.redrive.message.PayloadField}).
 */
final class MessageListing {
  private static final String LAST_FAILURE_REASON =
      "(SELECT h.reason FROM redrive_history h WHERE h.message_id = m.id"
          + " AND h.reason IS NOT NULL ORDER BY h.hid DESC LIMIT 1)";

  private final QueueRows queues;
  private final HistoryRows history;
  private final SqlDialect dialect;

  MessageListing(QueueRows queues, HistoryRows history, SqlDialect dialect) {
    this.queues = queues;
    this.history = history;
    this.dialect = dialect;
  }

  MessagePage list(Connection c, MessageQuery q, Instant now) throws SQLException {
    queues.require(c, q.queue(), false);
    StringBuilder sql =
        new StringBuilder(
            "SELECT "
                + MessageRow.COLUMNS
                + ", q.max_attempts, m.unique_key FROM redrive_messages m"
                + " JOIN redrive_queues q ON q.name = m.queue WHERE m.queue = ?");
    List<Object> args = new ArrayList<>();
    args.add(q.queue());
    if (q.states() != null && !q.states().isEmpty()) {
      List<String> ors = new ArrayList<>();
      for (MessageState s : q.states()) {
        switch (s) {
          case READY -> {
            ors.add("(m.state = 'READY' AND m.visible_at <= ?)");
            args.add(now.toEpochMilli());
          }
          case SCHEDULED -> {
            ors.add("(m.state = 'READY' AND m.visible_at > ?)");
            args.add(now.toEpochMilli());
          }
          case LEASED -> ors.add("m.state = 'LEASED'");
          case DEAD -> ors.add("m.state = 'DEAD'");
          case COMPLETED -> ors.add("1 = 0");
        }
      }
      sql.append(" AND (").append(String.join(" OR ", ors)).append(')');
    }
    columnFilters("m", q, sql, args);
    if (q.deadReason() != null) {
      sql.append(" AND m.state = 'DEAD' AND m.dead_reason = ?");
      args.add(q.deadReason().name());
    }
    if (q.fingerprint() != null) {
      sql.append(" AND m.state = 'DEAD' AND m.dead_fingerprint = ?");
      args.add(q.fingerprint());
    }
    if (q.payloadField() != null) {
      sql.append(" AND ");
      dialect.payloadFieldEquals(c, q.payloadField(), sql, args);
    }
    if (q.lastFailureReason() != null) {
      sql.append(" AND ").append(LAST_FAILURE_REASON).append(" = ?");
      args.add(q.lastFailureReason().name());
    }
    if (q.after() != null) {
      sql.append(" AND m.seq > ?");
      args.add(Inspecting.cursor(q.after()));
    }
    sql.append(" ORDER BY m.seq LIMIT ?");
    args.add(q.limit() + 1);
    List<MessageRow> rows = new ArrayList<>();
    List<Integer> maxes = new ArrayList<>();
    List<String> uniqueKeys = new ArrayList<>();
    long lastSeq = 0;
    boolean more = false;
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      Inspecting.bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (rows.size() == q.limit()) {
            more = true;
            break;
          }
          MessageRow row = MessageRow.map(rs);
          lastSeq = row.seq();
          rows.add(row);
          maxes.add(rs.getInt("max_attempts"));
          uniqueKeys.add(UniqueKeys.held(row, rs.getString("unique_key")));
        }
      }
    }
    Map<String, HistoryEntry> failures =
        history.lastFailures(c, rows.stream().map(MessageRow::id).toList());
    Map<String, Integer> sourceAttempts =
        history.sourceAttempts(
            c,
            rows.stream()
                .filter(r -> r.sourceQueue() != null && !r.sourceQueue().equals(r.queue()))
                .map(MessageRow::id)
                .toList());
    List<Message> out = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      MessageRow row = rows.get(i);
      HistoryEntry last = failures.get(row.id());
      out.add(
          Inspecting.toMessage(
              row,
              maxes.get(i),
              now,
              last == null ? null : last.failure(),
              List.of(),
              sourceAttempts.get(row.id()),
              uniqueKeys.get(i)));
    }
    return new MessagePage(out, more ? Long.toString(lastSeq) : null);
  }

  /**
   * The filters on a message's own columns, which a stored message ({@code m}) and a kept completed
   * one ({@code k}) share: stream, type, dedupe key, at least so many attempts.
   */
  static void columnFilters(String alias, MessageQuery q, StringBuilder sql, List<Object> args) {
    if (q.stream() != null) {
      sql.append(" AND ").append(alias).append(".stream = ?");
      args.add(q.stream());
    }
    if (q.type() != null) {
      sql.append(" AND ").append(alias).append(".type = ?");
      args.add(q.type());
    }
    if (q.dedupeKey() != null) {
      sql.append(" AND ").append(alias).append(".dedupe_key = ?");
      args.add(q.dedupeKey());
    }
    if (q.minAttempts() > 0) {
      sql.append(" AND ").append(alias).append(".attempts >= ?");
      args.add(q.minAttempts());
    }
  }
}
