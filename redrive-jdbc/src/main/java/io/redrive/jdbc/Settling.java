package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.failure.FailureRecord;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.AbandonParams;
import io.redrive.store.CompleteAllParams;
import io.redrive.store.CompleteParams;
import io.redrive.store.FailParams;
import io.redrive.store.ProgressParams;
import io.redrive.store.ReleaseParams;
import io.redrive.store.RenewParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Settling a lease: complete, fail, abandon, release and renew, each checked against the token. */
final class Settling {
  /** A lease whose message passed its deadline is lost; one parameter: now in epoch millis. */
  private static final String NOT_PAST_DEADLINE = "(expire_at IS NULL OR expire_at > ?)";

  private final MessageRows messages;
  private final HistoryRows history;
  private final DeadLettering deadLettering;
  private final SqlDialect dialect;

  Settling(
      SqlDialect dialect, MessageRows messages, HistoryRows history, DeadLettering deadLettering) {
    this.dialect = dialect;
    this.messages = messages;
    this.history = history;
    this.deadLettering = deadLettering;
  }

  SettleResult complete(Connection c, CompleteParams p) throws SQLException {
    MessageRow row = messages.lockLeased(c, p.token(), p.now()).row();
    history.delete(c, row.id());
    messages.delete(c, row.id());
    return new SettleResult(
        row.id(), MessageState.COMPLETED, null, null, null, false, row.queue(), leasedAt(row));
  }

  /**
   * One DELETE for every (id, current token) pair, so a worker's completions cost one round trip;
   * history rows exist only for messages that failed or were released before, and go with them.
   * SQLite runs its cached one-row statement per row (in-process, that beats a wide statement).
   */
  Map<String, SettleResult> completeAll(Connection c, CompleteAllParams p) throws SQLException {
    Map<String, SettleResult> done = new HashMap<>();
    List<String> ids = new ArrayList<>(p.tokens().size());
    List<String> nonces = new ArrayList<>(p.tokens().size());
    for (LeaseToken t : p.tokens()) {
      ids.add(t.messageId());
      nonces.add(t.nonce());
    }
    long now = p.now().toEpochMilli();
    if (dialect.batchesRowByRow()) {
      return completeRowByRow(c, ids, nonces, now);
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_messages WHERE state = 'LEASED' AND "
                + NOT_PAST_DEADLINE
                + " AND "
                + dialect.tokensMatch(ids.size())
                + " RETURNING id, queue, leased_at")) {
      ps.setLong(1, now);
      dialect.bindTokensMatch(ps, 2, ids, nonces);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          done.put(id, completed(id, rs.getString(2), rs.getLong(3)));
        }
      }
    }
    if (!done.isEmpty()) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "DELETE FROM redrive_history WHERE message_id " + dialect.in(done.size()))) {
        dialect.bindIn(ps, 1, done.keySet());
        ps.executeUpdate();
      }
    }
    return done;
  }

  private static SettleResult completed(String id, String queue, long leasedAt) {
    return new SettleResult(
        id, MessageState.COMPLETED, null, null, null, false, queue, Instant.ofEpochMilli(leasedAt));
  }

  private static Map<String, SettleResult> completeRowByRow(
      Connection c, List<String> ids, List<String> nonces, long now) throws SQLException {
    Map<String, SettleResult> done = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_messages WHERE id = ? AND lease_token = ? AND state = 'LEASED'"
                + " AND "
                + NOT_PAST_DEADLINE
                + " RETURNING queue, leased_at")) {
      for (int r = 0; r < ids.size(); r++) {
        ps.setString(1, ids.get(r));
        ps.setString(2, nonces.get(r));
        ps.setLong(3, now);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            done.put(ids.get(r), completed(ids.get(r), rs.getString(1), rs.getLong(2)));
          }
        }
      }
    }
    if (!done.isEmpty()) {
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM redrive_history WHERE message_id = ?")) {
        for (String id : done.keySet()) {
          ps.setString(1, id);
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    return done;
  }

  SettleResult fail(Connection c, FailParams p) throws SQLException {
    MessageRows.Locked locked = messages.lockLeased(c, p.token(), p.now());
    MessageRow row = locked.row();
    DeliveryRules.FailVerdict verdict =
        DeliveryRules.onFailure(
            locked.policy(), row.attempts(), p.reason(), p.retryable(), p.retryAfter(), p.now());
    history.insert(c, row.id(), failedDelivery(row, locked.policy(), p, verdict));
    if (verdict.retry()) {
      messages.makeReady(
          c, row.id(), verdict.visibleAt().toEpochMilli(), row.attempts(), p.progress());
      return ready(row, verdict.visibleAt(), p.now());
    }
    messages.setProgress(c, row.id(), p.progress());
    return deadLettering.kill(
        c, row.withProgress(p.progress()), locked.policy(), p.reason(), p.now());
  }

  /**
   * Fails each lease as {@link #fail} does, in one transaction, with a statement per step rather
   * than per message: one locking read of them all (in id order, so concurrent batches cannot
   * deadlock), one batch of history rows, one batch of retries; deaths, the rare case, go one by
   * one through dead-lettering. A lease that is not current is skipped and changes nothing.
   */
  Map<String, SettleResult> failAll(Connection c, List<FailParams> failures) throws SQLException {
    List<FailParams> ordered = new ArrayList<>(failures);
    ordered.sort(Comparator.comparing(f -> f.token().messageId()));
    Map<String, MessageRows.Locked> locked =
        messages.lockAll(c, ordered.stream().map(f -> f.token().messageId()).distinct().toList());
    List<Map.Entry<String, HistoryEntry>> entries = new ArrayList<>();
    List<MessageRows.ReadyAgain> retries = new ArrayList<>();
    List<FailParams> deaths = new ArrayList<>();
    Map<String, DeliveryRules.FailVerdict> verdicts = new HashMap<>();
    Map<String, SettleResult> out = new LinkedHashMap<>();
    for (FailParams p : ordered) {
      MessageRows.Locked l = locked.get(p.token().messageId());
      if (l == null
          || !MessageRows.holds(l.row(), p.token(), p.now())
          || verdicts.containsKey(l.row().id())) {
        continue; // not this caller's lease (or named twice): nothing is written for it
      }
      MessageRow row = l.row();
      DeliveryRules.FailVerdict verdict =
          DeliveryRules.onFailure(
              l.policy(), row.attempts(), p.reason(), p.retryable(), p.retryAfter(), p.now());
      verdicts.put(row.id(), verdict);
      entries.add(Map.entry(row.id(), failedDelivery(row, l.policy(), p, verdict)));
      if (verdict.retry()) {
        retries.add(
            new MessageRows.ReadyAgain(
                row.id(), verdict.visibleAt().toEpochMilli(), row.attempts(), p.progress()));
        out.put(row.id(), ready(row, verdict.visibleAt(), p.now()));
      } else {
        deaths.add(p);
      }
    }
    if (!entries.isEmpty()) {
      history.insertAll(c, entries);
    }
    if (!retries.isEmpty()) {
      messages.makeReadyAll(c, retries);
    }
    for (FailParams p : deaths) {
      MessageRows.Locked l = locked.get(p.token().messageId());
      messages.setProgress(c, l.row().id(), p.progress());
      out.put(
          l.row().id(),
          deadLettering.kill(
              c, l.row().withProgress(p.progress()), l.policy(), p.reason(), p.now()));
    }
    return out;
  }

  SettleResult abandon(Connection c, AbandonParams p) throws SQLException {
    MessageRows.Locked locked = messages.lockLeased(c, p.token(), p.now());
    MessageRow row = locked.row();
    QueuePolicy policy = locked.policy();
    int attempts = p.refund() ? Math.max(0, row.attempts() - 1) : row.attempts();
    String note =
        (p.note() == null ? "abandoned" : p.note())
            + (p.refund() ? " (attempt refunded)" : "")
            + (p.delay().isZero() ? "" : ", visible again after " + p.delay());
    FailureRecord failure =
        p.reason() == null
            ? null
            : new FailureRecord(
                p.reason(),
                note,
                true,
                row.attempts(),
                policy.maxAttempts(),
                row.leasedBy(),
                p.now(),
                null,
                null);
    history.insert(c, row.id(), delivery(row, Outcome.ABANDONED, p.now(), failure, note));
    Instant visibleAt = p.now().plus(p.delay());
    messages.makeReady(c, row.id(), visibleAt.toEpochMilli(), attempts, 0L);
    return ready(row, visibleAt, p.now());
  }

  List<SettleResult> release(Connection c, ReleaseParams p) throws SQLException {
    // Lock in id order so concurrent releases of overlapping sets cannot deadlock.
    List<LeaseToken> tokens = new ArrayList<>(p.tokens());
    tokens.sort(Comparator.comparing(LeaseToken::messageId));
    List<SettleResult> out = new ArrayList<>();
    for (LeaseToken token : tokens) {
      MessageRow row = messages.lockLeased(c, token, p.now()).row();
      history.insert(
          c,
          row.id(),
          delivery(row, Outcome.RELEASED, p.now(), null, "released (attempt refunded)"));
      messages.makeReady(c, row.id(), p.now().toEpochMilli(), Math.max(0, row.attempts() - 1), 0L);
      out.add(ready(row, p.now(), p.now()));
    }
    return out;
  }

  Instant renew(Connection c, RenewParams p) throws SQLException {
    MessageRows.Locked locked = messages.lockLeased(c, p.token(), p.now());
    Duration timeout = p.leaseTimeout() != null ? p.leaseTimeout() : locked.policy().leaseTimeout();
    Instant expiresAt = capAtDeadline(locked.row(), p.now().plus(timeout));
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_messages SET visible_at = ? WHERE id = ?")) {
      ps.setLong(1, expiresAt.toEpochMilli());
      ps.setString(2, locked.row().id());
      ps.executeUpdate();
    }
    return expiresAt;
  }

  /** A lease never runs past its message's deadline: the sweep takes the message there. */
  static Instant capAtDeadline(MessageRow row, Instant leaseExpiry) {
    if (row.expireAt() != null && row.expireAt() < leaseExpiry.toEpochMilli()) {
      return Instant.ofEpochMilli(row.expireAt());
    }
    return leaseExpiry;
  }

  long recordProgress(Connection c, ProgressParams p) throws SQLException {
    MessageRow row = messages.lockLeased(c, p.token(), p.now()).row();
    messages.setProgress(c, row.id(), p.progress());
    return row.progress() | p.progress();
  }

  private static HistoryEntry failedDelivery(
      MessageRow row, QueuePolicy policy, FailParams p, DeliveryRules.FailVerdict verdict) {
    return delivery(
        row,
        Outcome.FAILED,
        p.now(),
        new FailureRecord(
            p.reason(),
            p.message(),
            verdict.retryable(),
            row.attempts(),
            policy.maxAttempts(),
            row.leasedBy(),
            p.now(),
            p.stackTrace(),
            null),
        null);
  }

  static HistoryEntry delivery(
      MessageRow row, Outcome outcome, Instant now, FailureRecord failure, String note) {
    return new HistoryEntry(
        row.attempts(),
        outcome,
        row.leasedBy(),
        row.leasedAt() == null ? null : Instant.ofEpochMilli(row.leasedAt()),
        now,
        failure,
        note);
  }

  private static SettleResult ready(MessageRow row, Instant visibleAt, Instant now) {
    MessageState state = visibleAt.isAfter(now) ? MessageState.SCHEDULED : MessageState.READY;
    return new SettleResult(
        row.id(), state, visibleAt, null, null, false, row.queue(), leasedAt(row));
  }

  private static Instant leasedAt(MessageRow row) {
    return row.leasedAt() == null ? null : Instant.ofEpochMilli(row.leasedAt());
  }
}
