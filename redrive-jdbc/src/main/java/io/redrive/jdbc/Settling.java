package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.error.LeaseNotFoundException;
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
import java.util.Set;

/** Settling a lease: complete, fail, abandon, release and renew, each checked against the token. */
final class Settling {
  /** A lease whose message passed its deadline is lost; one parameter: now in epoch millis. */
  private static final String NOT_PAST_DEADLINE = "(expire_at IS NULL OR expire_at > ?)";

  private final MessageRows messages;
  private final HistoryRows history;
  private final CompletionRows completions;
  private final DeadLettering deadLettering;
  private final SqlDialect dialect;

  Settling(
      SqlDialect dialect,
      MessageRows messages,
      HistoryRows history,
      CompletionRows completions,
      DeadLettering deadLettering) {
    this.dialect = dialect;
    this.messages = messages;
    this.history = history;
    this.completions = completions;
    this.deadLettering = deadLettering;
  }

  SettleResult complete(Connection c, CompleteParams p) throws SQLException {
    MessageRow row;
    try {
      row = messages.lockLeased(c, p.token(), p.now()).row();
    } catch (LeaseNotFoundException e) {
      if (!CompletionRows.remembers(p.completionWindow())) {
        throw e;
      }
      return repeated(c, List.of(p.token()), p.now(), p.completionWindow()).values().stream()
          .findFirst()
          .orElseThrow(() -> e);
    }
    history.delete(c, row.id());
    messages.delete(c, row.id());
    if (CompletionRows.remembers(p.completionWindow())) {
      completions.insertAll(
          c,
          List.of(
              new CompletionRows.Completion(
                  row.id(),
                  row.queue(),
                  p.token().nonce(),
                  row.dedupeKey(),
                  row.leasedAt(),
                  p.now().toEpochMilli())));
    }
    return new SettleResult(
        row.id(), MessageState.COMPLETED, null, null, null, false, row.queue(), leasedAt(row));
  }

  /**
   * The tokens among {@code tokens} whose message this very lease completed within the window:
   * answered as completed again ({@code repeated}), so a worker that never got the first answer
   * (COMMIT_UNKNOWN, a cut connection) learns its work is done.
   */
  private Map<String, SettleResult> repeated(
      Connection c, List<LeaseToken> tokens, Instant now, Duration window) throws SQLException {
    Map<String, SettleResult> out = new HashMap<>();
    if (tokens.isEmpty()) {
      return out;
    }
    Map<String, CompletionRows.Completion> found =
        completions.find(
            c,
            tokens.stream().map(LeaseToken::messageId).distinct().toList(),
            now.minus(window).toEpochMilli());
    for (LeaseToken t : tokens) {
      CompletionRows.Completion done = found.get(t.messageId());
      if (done != null && done.leaseToken().equals(t.nonce())) {
        out.put(
            t.messageId(),
            new SettleResult(
                t.messageId(),
                MessageState.COMPLETED,
                null,
                null,
                null,
                false,
                done.queue(),
                done.leasedAt() == null ? null : Instant.ofEpochMilli(done.leasedAt()),
                true));
      }
    }
    return out;
  }

  /**
   * One DELETE for every (id, current token) pair, so a worker's completions cost one round trip;
   * history rows exist only for messages that failed or were released before, and go with them.
   * SQLite runs its cached one-row statement per row (in-process, that beats a wide statement).
   * Tokens that hold nothing are looked up among the remembered completions.
   */
  Map<String, SettleResult> completeAll(Connection c, CompleteAllParams p) throws SQLException {
    List<String> ids = new ArrayList<>(p.tokens().size());
    List<String> nonces = new ArrayList<>(p.tokens().size());
    for (LeaseToken t : p.tokens()) {
      ids.add(t.messageId());
      nonces.add(t.nonce());
    }
    long now = p.now().toEpochMilli();
    Map<String, CompletionRows.Completion> done =
        dialect.batchesRowByRow()
            ? completeRowByRow(c, ids, nonces, now)
            : completeInOneStatement(c, ids, nonces, now);
    if (!done.isEmpty()) {
      deleteHistory(c, done.keySet());
    }
    Map<String, SettleResult> out = new HashMap<>();
    for (CompletionRows.Completion r : done.values()) {
      out.put(r.messageId(), completed(r));
    }
    if (!CompletionRows.remembers(p.completionWindow())) {
      return out;
    }
    if (!done.isEmpty()) {
      completions.insertAll(c, done.values());
    }
    List<LeaseToken> missed =
        p.tokens().stream().filter(t -> !done.containsKey(t.messageId())).toList();
    out.putAll(repeated(c, missed, p.now(), p.completionWindow()));
    return out;
  }

  private void deleteHistory(Connection c, Set<String> ids) throws SQLException {
    if (dialect.batchesRowByRow()) {
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM redrive_history WHERE message_id = ?")) {
        for (String id : ids) {
          ps.setString(1, id);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      return;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_history WHERE message_id " + dialect.in(ids.size()))) {
      dialect.bindIn(ps, 1, ids);
      ps.executeUpdate();
    }
  }

  private Map<String, CompletionRows.Completion> completeInOneStatement(
      Connection c, List<String> ids, List<String> nonces, long now) throws SQLException {
    Map<String, CompletionRows.Completion> done = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_messages WHERE state = 'LEASED' AND "
                + NOT_PAST_DEADLINE
                + " AND "
                + dialect.tokensMatch(ids.size())
                + " RETURNING id, queue, leased_at, lease_token, dedupe_key")) {
      ps.setLong(1, now);
      dialect.bindTokensMatch(ps, 2, ids, nonces);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          done.put(
              id,
              new CompletionRows.Completion(
                  id, rs.getString(2), rs.getString(4), rs.getString(5), rs.getLong(3), now));
        }
      }
    }
    return done;
  }

  private static SettleResult completed(CompletionRows.Completion r) {
    return new SettleResult(
        r.messageId(),
        MessageState.COMPLETED,
        null,
        null,
        null,
        false,
        r.queue(),
        Instant.ofEpochMilli(r.leasedAt()));
  }

  private static Map<String, CompletionRows.Completion> completeRowByRow(
      Connection c, List<String> ids, List<String> nonces, long now) throws SQLException {
    Map<String, CompletionRows.Completion> done = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_messages WHERE id = ? AND lease_token = ? AND state = 'LEASED'"
                + " AND "
                + NOT_PAST_DEADLINE
                + " RETURNING queue, leased_at, dedupe_key")) {
      for (int r = 0; r < ids.size(); r++) {
        ps.setString(1, ids.get(r));
        ps.setString(2, nonces.get(r));
        ps.setLong(3, now);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            done.put(
                ids.get(r),
                new CompletionRows.Completion(
                    ids.get(r),
                    rs.getString(1),
                    nonces.get(r),
                    rs.getString(3),
                    rs.getLong(2),
                    now));
          }
        }
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
