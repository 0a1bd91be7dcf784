package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.SettleCommand;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import java.time.Instant;

/**
 * The history entries that close a delivery without completing it: failed, abandoned, released,
 * undelivered.
 */
final class DeliveryEntries {
  private DeliveryEntries() {}

  static HistoryEntry abandoned(
      MessageRow row, QueuePolicy policy, SettleCommand.Abandon a, Instant now) {
    String note =
        (a.note() != null ? a.note() : a.hold() ? SlowDowns.note(row, a) : "abandoned")
            + (a.refund() ? " (attempt refunded)" : "")
            + (a.delay().isZero() ? "" : ", visible again after " + a.delay());
    FailureRecord failure =
        a.reason() == null
            ? null
            : new FailureRecord(
                a.reason(),
                note,
                true,
                row.attempts(),
                policy.maxAttempts(),
                row.leasedBy(),
                now,
                null,
                null);
    return of(row, Outcome.ABANDONED, now, failure, note);
  }

  static HistoryEntry failed(
      MessageRow row,
      QueuePolicy policy,
      SettleCommand.Fail f,
      DeliveryRules.FailVerdict verdict,
      Instant now) {
    return of(
        row,
        Outcome.FAILED,
        now,
        new FailureRecord(
            f.reason(),
            f.message(),
            verdict.retryable(),
            row.attempts(),
            policy.maxAttempts(),
            row.leasedBy(),
            now,
            f.stackTrace(),
            null),
        null);
  }

  /** The entry closing the delivery of {@code row} with {@code outcome}. */
  static HistoryEntry of(
      MessageRow row, Outcome outcome, Instant now, FailureRecord failure, String note) {
    return new HistoryEntry(
        row.attempts(), outcome, row.leasedBy(), leasedAt(row), now, failure, note);
  }

  /** When the row's current (or last) delivery was leased, or null. */
  static Instant leasedAt(MessageRow row) {
    return row.leasedAt() == null ? null : Instant.ofEpochMilli(row.leasedAt());
  }
}
