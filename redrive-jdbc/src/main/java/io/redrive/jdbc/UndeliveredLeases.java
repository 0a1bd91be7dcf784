package io.redrive.jdbc;

import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.store.ReleaseUndeliveredParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Gives back the messages of a lease batch whose answer was lost: the lease committed but the
 * caller never got the tokens, so nobody can settle them. Each still held by that batch goes back
 * to READY at once with the attempt refunded and a LEASE_UNDELIVERED history entry, instead of
 * waiting out its lease and costing an attempt.
 */
final class UndeliveredLeases {
  static final String NOTE =
      "lease answer lost: the lease committed but its answer never reached worker %s;"
          + " given back at once (attempt refunded)";

  private final SqlDialect dialect;
  private final MessageRows messages;
  private final HistoryRows history;

  UndeliveredLeases(SqlDialect dialect, MessageRows messages, HistoryRows history) {
    this.dialect = dialect;
    this.messages = messages;
    this.history = history;
  }

  List<String> release(Connection c, ReleaseUndeliveredParams p) throws SQLException {
    long now = p.now().toEpochMilli();
    List<MessageRow> rows = new ArrayList<>();
    // Past-deadline rows stay for the sweep, as for every lease holder; id order so concurrent
    // bulk lockers cannot deadlock.
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + MessageRow.COLUMNS
                + " FROM redrive_messages m WHERE m.queue = ? AND m.state = 'LEASED'"
                + " AND m.lease_batch = ? AND (m.expire_at IS NULL OR m.expire_at > ?)"
                + " ORDER BY m.id "
                + dialect.lockRows("m"))) {
      ps.setString(1, p.queue());
      ps.setString(2, p.batch());
      ps.setLong(3, now);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(MessageRow.map(rs));
        }
      }
    }
    if (rows.isEmpty()) {
      return List.of();
    }
    List<Map.Entry<String, HistoryEntry>> entries = new ArrayList<>(rows.size());
    List<MessageRows.ReadyAgain> ready = new ArrayList<>(rows.size());
    List<String> ids = new ArrayList<>(rows.size());
    for (MessageRow row : rows) {
      entries.add(
          Map.entry(
              row.id(),
              DeliveryEntries.of(
                  row,
                  Outcome.LEASE_UNDELIVERED,
                  p.now(),
                  null,
                  String.format(NOTE, row.leasedBy()))));
      ready.add(new MessageRows.ReadyAgain(row.id(), now, Math.max(0, row.attempts() - 1), 0L));
      ids.add(row.id());
    }
    history.insertAll(c, entries);
    messages.makeReadyAll(c, ready);
    return ids;
  }
}
