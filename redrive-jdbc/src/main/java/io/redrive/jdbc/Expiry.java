package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/** The history entry of a message that passed its deadline. */
final class Expiry {
  private Expiry() {}

  static void record(
      HistoryRows history, Connection c, MessageRow row, QueuePolicy policy, Instant now)
      throws SQLException {
    Instant deadline = Instant.ofEpochMilli(row.expireAt());
    history.insert(
        c,
        row.id(),
        new HistoryEntry(
            row.attempts(),
            Outcome.EXPIRED,
            row.leased() ? row.leasedBy() : null,
            row.leased() && row.leasedAt() != null ? Instant.ofEpochMilli(row.leasedAt()) : null,
            now,
            new FailureRecord(
                FailureReason.EXPIRED,
                DeliveryRules.expiredText(row.id(), row.type(), deadline),
                false,
                row.attempts(),
                policy.maxAttempts(),
                null,
                now,
                null,
                null),
            null));
  }
}
