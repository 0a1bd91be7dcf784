package io.redrive.jdbc;

import io.redrive.deadletter.Fingerprint;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.jdbc.owned.EndedMessage;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills a message inside the caller's transaction, the way its queue says: in place as DEAD, moved
 * to the dead-letter queue (new id, sourceId, sourceQueue, history carried; idempotent on
 * sourceId), or discarded with a log line.
 */
final class DeadLettering {
  private static final Logger LOG = LoggerFactory.getLogger(DeadLettering.class);

  private final MessageRows messages;
  private final HistoryRows history;
  private final Supplier<String> ids;

  DeadLettering(MessageRows messages, HistoryRows history, Supplier<String> ids) {
    this.messages = messages;
    this.history = history;
    this.ids = ids;
  }

  /**
   * Makes {@code row} dead for {@code reason}, reading its cause ({@link Fingerprint#causeOf}) from
   * its history for its fingerprint. The history entry that explains the death must already be
   * written.
   */
  SettleResult kill(
      Connection c,
      MessageRow row,
      QueuePolicy policy,
      QueueEndings endings,
      FailureReason reason,
      Instant now)
      throws SQLException {
    return kill(c, row, policy, endings, reason, history.lastCause(c, row.id()), now);
  }

  /**
   * Makes {@code row} dead for {@code reason} of {@code cause} (the caller knows it, e.g. the
   * failure being settled; null when its history has none), stamping its fingerprint on the dead
   * row, where its queue's {@code endings} route it, and tells them. The history entry that
   * explains the death must already be written.
   */
  SettleResult kill(
      Connection c,
      MessageRow row,
      QueuePolicy policy,
      QueueEndings endings,
      FailureReason reason,
      FailureRecord cause,
      Instant now)
      throws SQLException {
    String fingerprint = Fingerprint.of(reason, row.type(), cause).key();
    SettleResult dead = route(c, row, policy, endings, reason, fingerprint, now);
    endings.ended(
        c,
        new EndedMessage(
            row.id(),
            row.queue(),
            row.attempts(),
            EndedMessage.Ending.ofDeath(reason),
            null,
            null,
            () -> history.read(c, row.id()),
            now));
    return dead;
  }

  private SettleResult route(
      Connection c,
      MessageRow row,
      QueuePolicy policy,
      QueueEndings endings,
      FailureReason reason,
      String fingerprint,
      Instant now)
      throws SQLException {
    switch (endings.route(policy, row.stream(), reason)) {
      case KEEP -> {
        keepInPlace(c, row.id(), reason, fingerprint, now);
        return new SettleResult(
            row.id(), MessageState.DEAD, null, reason, null, false, row.queue(), leasedAt(row));
      }
      case DISCARD -> {
        history.delete(c, row.id());
        messages.delete(c, row.id());
        LOG.warn(
            "discarded dead message {} (queue {}, type {}, reason {}, attempts {})",
            row.id(),
            row.queue(),
            row.type(),
            reason,
            row.attempts());
        return new SettleResult(
            row.id(), MessageState.DEAD, null, reason, null, true, row.queue(), leasedAt(row));
      }
      default -> {
        String dlq = policy.deadLetter().queue();
        moveToDeadLetterQueue(c, row, dlq, reason, fingerprint, now);
        return new SettleResult(
            row.id(), MessageState.DEAD, null, reason, dlq, false, row.queue(), leasedAt(row));
      }
    }
  }

  private static Instant leasedAt(MessageRow row) {
    return row.leased() && row.leasedAt() != null ? Instant.ofEpochMilli(row.leasedAt()) : null;
  }

  private void keepInPlace(
      Connection c, String id, FailureReason reason, String fingerprint, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET state = 'DEAD', dead_reason = ?, dead_at = ?,"
                + " dead_fingerprint = ?, visible_at = ?, lease_token = NULL, lease_batch = NULL,"
                + " leased_by = NULL, leased_at = NULL WHERE id = ?")) {
      ps.setString(1, reason.name());
      ps.setLong(2, now.toEpochMilli());
      ps.setString(3, fingerprint);
      ps.setLong(4, now.toEpochMilli());
      ps.setString(5, id);
      ps.executeUpdate();
    }
  }

  private void moveToDeadLetterQueue(
      Connection c,
      MessageRow row,
      String dlq,
      FailureReason reason,
      String fingerprint,
      Instant now)
      throws SQLException {
    String copyId = ids.get();
    long t = now.toEpochMilli();
    boolean inserted =
        messages.insertIfAbsent(
            c,
            new MessageRows.NewRow(
                copyId,
                dlq,
                row.type(),
                row.payload(),
                row.headers(),
                row.stream(),
                "DEAD",
                0,
                row.progress(),
                t,
                t,
                null,
                reason.name(),
                t,
                row.id(),
                row.queue(),
                null,
                // The copy keeps its priority and head start (a redrive moves it back as it is).
                row.priority(),
                row.headStart(),
                row.limitKey(),
                null)); // a dead-letter copy holds no unique key
    if (inserted) {
      // The copy carries its source's history, so the same cause and fingerprint.
      messages.markDeadLetterCopy(c, copyId, fingerprint, row.id());
      history.copy(c, row.id(), copyId);
      history.insert(
          c,
          copyId,
          new HistoryEntry(
              row.attempts(),
              Outcome.DEAD_LETTERED,
              null,
              null,
              now,
              null,
              "moved from " + row.queue() + " (id " + row.id() + ")"));
    }
    // A copy already present (a retried move or an import) makes this a no-op besides the delete.
    history.delete(c, row.id());
    messages.delete(c, row.id());
  }
}
