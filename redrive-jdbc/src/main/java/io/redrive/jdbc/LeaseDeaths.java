package io.redrive.jdbc;

import io.redrive.deadletter.Fingerprint;
import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.SettleResult;
import io.redrive.message.CrashEvidence;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * What a lease round writes for candidates it does not deliver ({@link Leasing}): the closing entry
 * of a lease that ran out, and the deaths decided at lease time (EXPIRED past the deadline, POISON
 * past the attempts or by the crash-loop breaker), each recorded in the message's history and then
 * dead-lettered.
 */
final class LeaseDeaths {
  private final HistoryRows history;
  private final DeadLettering deadLettering;

  LeaseDeaths(HistoryRows history, DeadLettering deadLettering) {
    this.history = history;
    this.deadLettering = deadLettering;
  }

  /**
   * Closes the previous delivery of a message whose lease ran out: the attempt stays counted. On a
   * queue with a crash-loop breaker the entry records its {@link CrashEvidence}: a worker crash
   * when some engine node (or {@code checking}, the node leasing now) was continuously alive from
   * the lease's start to its expiry, an outage otherwise.
   *
   * @return the distinct workers it has crashed, this one included, when the queue counts crashes
   *     ({@code maxCrashes} > 0); else empty, without reading the history
   */
  List<String> recordLeaseExpired(Connection c, MessageRow row, QueuePolicy policy, String checking)
      throws SQLException {
    Instant expiredAt = Instant.ofEpochMilli(row.visibleAt());
    String note = null;
    if (policy.maxCrashes() > 0) {
      // Read only here, at an expiry on a breaker's queue (rare): no lease pays for the evidence.
      long from =
          row.leasedAt() != null
              ? row.leasedAt()
              : expiredAt.minus(policy.leaseTimeout()).toEpochMilli();
      boolean witnessed = Liveness.witnessed(c, from, row.visibleAt(), checking);
      note = (witnessed ? CrashEvidence.WORKER_DIED : CrashEvidence.OUTAGE).note();
    }
    history.insert(
        c,
        row.id(),
        new HistoryEntry(
            row.attempts(),
            Outcome.LEASE_EXPIRED,
            row.leasedBy(),
            row.leasedAt() == null ? null : Instant.ofEpochMilli(row.leasedAt()),
            expiredAt,
            new FailureRecord(
                FailureReason.LEASE_EXPIRED,
                "lease expired: worker "
                    + row.leasedBy()
                    + " did not settle within its lease (crash, kill or hang)",
                true,
                row.attempts(),
                policy.maxAttempts(),
                row.leasedBy(),
                expiredAt,
                null,
                null),
            note));
    if (policy.maxCrashes() == 0) {
      return List.of();
    }
    return DeliveryRules.crashedWorkers(history.read(c, row.id()));
  }

  /**
   * The crash-loop breaker: dead-letters as POISON a message whose lease ran out on {@code crashed}
   * ({@code maxCrashes} distinct workers), whatever attempts it has left, with its own display
   * text; its snapshot names the crashed workers and the limit.
   */
  SettleResult crashPoison(
      Connection c,
      MessageRow row,
      QueuePolicy policy,
      List<String> crashed,
      QueueEndings endings,
      Instant now)
      throws SQLException {
    int attempt = row.attempts() + 1;
    List<HistoryEntry> story = history.read(c, row.id());
    String snapshot = Json.snapshot(row, policy.maxAttempts(), story, crashed, policy.maxCrashes());
    String text =
        DeliveryRules.crashLoopText(row.id(), row.type(), crashed, attempt, policy.maxCrashes());
    return killAsPoison(
        c, row, policy, endings, attempt, text, snapshot, Fingerprint.causeOf(story), now);
  }

  SettleResult poison(
      Connection c, MessageRow row, QueuePolicy policy, QueueEndings endings, Instant now)
      throws SQLException {
    int attempt = row.attempts() + 1;
    List<HistoryEntry> story = history.read(c, row.id());
    String snapshot = Json.snapshot(row, policy.maxAttempts(), story);
    String text = DeliveryRules.poisonText(row.id(), row.type(), attempt, policy.maxAttempts());
    return killAsPoison(
        c, row, policy, endings, attempt, text, snapshot, Fingerprint.causeOf(story), now);
  }

  /**
   * Records the refused delivery {@code attempt} as POISONED with its story, then kills it; {@code
   * cause} is the failure before the poisoning (read with the story), or null.
   */
  private SettleResult killAsPoison(
      Connection c,
      MessageRow row,
      QueuePolicy policy,
      QueueEndings endings,
      int attempt,
      String text,
      String snapshot,
      FailureRecord cause,
      Instant now)
      throws SQLException {
    history.insert(
        c,
        row.id(),
        new HistoryEntry(
            attempt,
            Outcome.POISONED,
            null,
            null,
            now,
            new FailureRecord(
                FailureReason.POISON,
                text,
                false,
                attempt,
                policy.maxAttempts(),
                null,
                now,
                null,
                snapshot),
            null));
    return deadLettering.kill(c, row, policy, endings, FailureReason.POISON, cause, now);
  }

  SettleResult expire(
      Connection c, MessageRow row, QueuePolicy policy, QueueEndings endings, Instant now)
      throws SQLException {
    Expiry.record(history, c, row, policy, now);
    return deadLettering.kill(c, row, policy, endings, FailureReason.EXPIRED, now);
  }
}
