package io.redrive.jdbc;

import io.redrive.error.StoreException;
import io.redrive.message.EnqueueResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.NewMessage;
import io.redrive.message.OnDuplicate;
import io.redrive.message.Outcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Enqueues with a unique key (docs/engine.md, "Unique and debounced messages"): the key is held by
 * a message from its enqueue until its first lease, and a second enqueue with it while the holder
 * waits keeps or replaces the holder, in the enqueue's transaction.
 *
 * <p>The lease never reads or writes the key, so unique keys cost nothing where unused. A holder
 * still waits when it is READY with no attempt used: the lease counts the attempt in its own
 * statement, and every statement that puts a message back to READY with its attempts at 0 (release,
 * refund, manual retry, redrive: {@link MessageRows#makeReadyAll} for a row that was LEASED or
 * DEAD, and the redrive update) clears the key. An enqueue that meets a holder no longer waiting
 * clears its key and inserts.
 *
 * <p>Concurrency: the partial unique index on {@code (queue, unique_key)} decides. On PostgreSQL an
 * insert that meets another transaction's uncommitted holder waits for it ({@code ON CONFLICT DO
 * NOTHING}), and the holder is then read locked ({@code FOR UPDATE}, which also waits for a lease
 * taking it and then sees it leased); SQLite has one writer. So of two enqueues racing with one
 * key, one inserts and the other meets its committed row: one waiting message remains.
 */
final class UniqueKeys {
  /** Rounds of insert and read before giving up: each lost round means another writer moved. */
  private static final int ROUNDS = 8;

  private final SqlDialect dialect;
  private final MessageRows messages;
  private final HistoryRows history;

  UniqueKeys(SqlDialect dialect, MessageRows messages, HistoryRows history) {
    this.dialect = dialect;
    this.messages = messages;
    this.history = history;
  }

  /** Whether any message of the batch has a unique key (the others take the plain insert). */
  static boolean any(List<io.redrive.store.EnqueueParams.Entry> entries) {
    for (io.redrive.store.EnqueueParams.Entry e : entries) {
      if (e.message().uniqueKey() != null) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code row} still holds its unique key: READY with no attempt used. */
  static boolean waiting(MessageRow row) {
    return "READY".equals(row.state()) && row.attempts() == 0;
  }

  /** The unique key {@code row} holds: {@code key} while it waits, else null. */
  static String held(MessageRow row, String key) {
    return key != null && waiting(row) ? key : null;
  }

  /**
   * Enqueues one message with a unique key, whose queue was checked open: created, kept (a
   * duplicate of the waiting holder) or replacing the holder's content.
   *
   * @param row the new row, its visible time already the debounce window's end when debounced
   */
  EnqueueResult enqueue(
      Connection c, MessageRows.NewRow row, NewMessage m, Instant now, boolean byOwner)
      throws SQLException {
    for (int round = 0; round < ROUNDS; round++) {
      if (messages.insertAllIfAbsent(c, List.of(row), true, byOwner)[0]) {
        return new EnqueueResult(row.id(), false);
      }
      Optional<MessageRow> holder = lockHolder(c, row.queue(), row.uniqueKey());
      if (holder.isEmpty()) {
        continue; // it left (leased and freed, completed) between the insert and the read
      }
      MessageRow h = holder.get();
      if (!waiting(h)) {
        free(c, h.id());
        continue;
      }
      if (m.onDuplicate() == OnDuplicate.KEEP) {
        return new EnqueueResult(h.id(), true);
      }
      replace(c, h, row, m, now);
      return EnqueueResult.replacedBy(h.id());
    }
    throw new StoreException(
        "unique key " + row.uniqueKey() + " of queue " + row.queue() + " kept changing hands",
        "40001",
        true,
        null);
  }

  private Optional<MessageRow> lockHolder(Connection c, String queue, String key)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + MessageRow.COLUMNS
                + " FROM redrive_messages m WHERE m.queue = ? AND m.unique_key = ? "
                + dialect.lockRows("m"))) {
      ps.setString(1, queue);
      ps.setString(2, key);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(MessageRow.map(rs)) : Optional.empty();
      }
    }
  }

  /** The holder was leased since its enqueue: its key is free for a new message. */
  private void free(Connection c, String id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_messages SET unique_key = NULL WHERE id = ?")) {
      ps.setString(1, id);
      ps.executeUpdate();
    }
  }

  /**
   * The waiting holder takes the new payload, headers and visible time (and the deadline when the
   * enqueue gave one), keeping its id, stream and {@code seq}; its history keeps one REPLACED
   * entry, the latest (a debounced key may be enqueued thousands of times).
   */
  private void replace(
      Connection c, MessageRow holder, MessageRows.NewRow row, NewMessage m, Instant now)
      throws SQLException {
    if (!holder.type().equals(row.type())) {
      throw new IllegalArgumentException(
          "type: message "
              + holder.id()
              + " holding uniqueKey "
              + row.uniqueKey()
              + " has type "
              + holder.type()
              + ", this enqueue has type "
              + row.type()
              + " (replace keeps the type)");
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET payload = ?, headers = ?, visible_at = ?,"
                + " expire_at = COALESCE(?, expire_at) WHERE id = ?")) {
      ps.setString(1, row.payload());
      ps.setString(2, row.headers());
      ps.setLong(3, row.visibleAt());
      MessageRows.setLong(ps, 4, row.expireAt());
      ps.setString(5, holder.id());
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_history WHERE message_id = ? AND outcome = 'REPLACED'")) {
      ps.setString(1, holder.id());
      ps.executeUpdate();
    }
    history.insert(
        c,
        holder.id(),
        new HistoryEntry(
            0,
            Outcome.REPLACED,
            null,
            null,
            now,
            null,
            (m.debounce() == null ? "replaced by an enqueue" : "debounced by an enqueue")
                + ": payload, headers and visible time ("
                + Instant.ofEpochMilli(row.visibleAt())
                + ") taken from it"));
  }
}
