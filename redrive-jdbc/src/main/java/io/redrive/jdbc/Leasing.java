package io.redrive.jdbc;

import io.redrive.deadletter.Fingerprint;
import io.redrive.engine.DeliveryRules;
import io.redrive.engine.DeliveryRules.LeaseVerdict;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Outcome;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.StreamPolicy;
import io.redrive.store.LeaseParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lease algorithm, run in one write transaction ({@link #lease}); where the dialect runs single
 * statements committed alone, a first round runs that way ({@link #leaseAlone}) and the transaction
 * only when that round met rows it could not take.
 *
 * <p>Implementation notes. Candidates are READY or LEASED rows whose {@code visible_at} has passed
 * (for a LEASED row that is its lease expiry, so an expired lease is simply leasable again), in
 * serve order {@code (visible_at, seq)}, filtered by the stream head rule of the queue's stream
 * policy. Each candidate is then judged by {@link DeliveryRules#onLease}: past its deadline it dies
 * as EXPIRED, past its attempts it dies as POISON, otherwise its attempts are incremented and it is
 * leased. Rows leased by this call carry the caller's {@code lease_batch} id so that later messages
 * of the same stream may join the batch in order, and so that the caller can give them back ({@link
 * UndeliveredLeases}) when the answer is lost; the query repeats while a round could have unblocked
 * more messages.
 */
final class Leasing {
  /**
   * The lease expiry, capped at the message's deadline so a lease never outlives it; binds the
   * uncapped expiry twice.
   */
  private static final String CAPPED_EXPIRY =
      "CASE WHEN expire_at IS NOT NULL AND expire_at < ? THEN expire_at ELSE ? END";

  private final SqlDialect dialect;
  private final QueueRows queues;
  private final HistoryRows history;
  private final DeadLettering deadLettering;
  private final QueueKinds kinds;
  private final String[] candidateSql = new String[StreamPolicy.values().length];

  /** The one-statement rounds, where the database can run them (null: select, then update). */
  private final LeaseClaims claims;

  Leasing(
      SqlDialect dialect,
      QueueRows queues,
      HistoryRows history,
      DeadLettering deadLettering,
      QueueKinds kinds) {
    this.dialect = dialect;
    this.queues = queues;
    this.history = history;
    this.deadLettering = deadLettering;
    this.kinds = kinds;
    this.claims = dialect.singleStatementWrites() ? new LeaseClaims() : null;
    for (StreamPolicy p : StreamPolicy.values()) {
      candidateSql[p.ordinal()] = candidateSql(p);
    }
  }

  private String candidateSql(StreamPolicy policy) {
    String earlierBlocks =
        switch (policy) {
          case HOLD -> "p.state IN ('READY', 'LEASED')";
          case HALT -> "p.state IN ('READY', 'LEASED', 'DEAD')";
          case RELEASE -> "p.state IN ('READY', 'LEASED') AND p.visible_at <= ?";
        };
    return "SELECT "
        + MessageRow.COLUMNS
        + " FROM redrive_messages m"
        + " WHERE m.queue = ? AND m.state IN ('READY', 'LEASED') AND m.visible_at <= ?"
        + " AND (m.stream IS NULL OR NOT EXISTS (SELECT 1 FROM redrive_messages p"
        + " WHERE p.queue = m.queue AND p.stream = m.stream AND p.seq <> m.seq"
        + " AND (p.lease_batch IS NULL OR p.lease_batch <> ?)"
        + " AND ((p.seq < m.seq AND "
        + earlierBlocks
        + ") OR (p.state = 'LEASED' AND p.visible_at > ?))))"
        + " ORDER BY m.visible_at, m.seq LIMIT ? "
        + dialect.lockRowsSkipLocked("m");
  }

  /** Counts in {@code tally} the leases found expired (failed) and the messages killed (dead). */
  LeaseResult lease(Connection c, LeaseParams params, Tally tally) throws SQLException {
    List<LeasedMessage> leased = new ArrayList<>();
    List<String> poisoned = new ArrayList<>();
    List<String> expired = new ArrayList<>();
    List<String> discarded = new ArrayList<>();
    List<String> crashPoisoned = new ArrayList<>();
    Queue queue = claims == null ? queues.require(c, params.queue(), false) : null;
    String batch = params.batch();
    Instant now = params.now();
    while (queue == null || !queue.paused()) {
      int want = params.max() - leased.size();
      if (want <= 0) {
        break;
      }
      List<MessageRow> rows;
      Map<Long, LeaseClaims.Lease> claimed = null;
      if (claims != null) {
        LeaseClaims.Round round =
            claims.claim(
                c, params.queue(), params.worker(), batch, params.leaseTimeout(), now, want, false);
        queue = round.queue();
        rows = round.rows();
        claimed = round.leases();
      } else {
        rows = candidates(c, queue.policy().streamPolicy(), params.queue(), batch, now, want);
      }
      if (rows.isEmpty()) {
        break;
      }
      QueuePolicy policy = queue.policy();
      QueueEndings endings = kinds.endings(queue);
      boolean mayUnblock = false;
      List<MessageRow> deliver = new ArrayList<>();
      for (MessageRow row : rows) {
        List<String> crashed = List.of();
        if (row.leased()) {
          crashed = recordLeaseExpired(c, row, policy);
          tally.failed(row.queue());
        }
        LeaseVerdict verdict =
            DeliveryRules.onLease(row.attempts(), policy.maxAttempts(), expireAt(row), now);
        boolean crashLoop =
            verdict != LeaseVerdict.EXPIRE
                && DeliveryRules.isCrashLoop(crashed, policy.maxCrashes());
        if (claimed != null) {
          agree(row, claimed.containsKey(row.seq()), verdict, policy);
        }
        if (crashLoop) {
          if (crashPoison(c, row, policy, crashed, endings, now).discarded()) {
            discarded.add(row.id());
          }
          poisoned.add(row.id());
          crashPoisoned.add(row.id());
          mayUnblock = true;
          continue;
        }
        switch (verdict) {
          case EXPIRE -> {
            if (expire(c, row, policy, endings, now).discarded()) {
              discarded.add(row.id());
            }
            expired.add(row.id());
            mayUnblock = true;
          }
          case POISON -> {
            if (poison(c, row, policy, endings, now).discarded()) {
              discarded.add(row.id());
            }
            poisoned.add(row.id());
            mayUnblock = true;
          }
          case DELIVER -> {
            deliver.add(row);
            mayUnblock |= row.stream() != null;
          }
        }
      }
      Duration timeout =
          params.leaseTimeout() != null ? params.leaseTimeout() : policy.leaseTimeout();
      if (claimed != null) {
        // The statement leaves an expired lease to us when the queue counts crashes.
        List<MessageRow> unclaimed = new ArrayList<>();
        for (MessageRow row : deliver) {
          if (!claimed.containsKey(row.seq())) {
            unclaimed.add(row);
          }
        }
        Map<String, LeasedMessage> taken = new java.util.HashMap<>();
        for (LeasedMessage m : take(c, unclaimed, params.worker(), batch, timeout, policy, now)) {
          taken.put(m.id(), m);
        }
        for (MessageRow row : deliver) {
          LeaseClaims.Lease lease = claimed.get(row.seq());
          leased.add(lease != null ? delivery(row, lease, policy) : taken.get(row.id()));
        }
      } else {
        leased.addAll(take(c, deliver, params.worker(), batch, timeout, policy, now));
      }
      if (!mayUnblock && rows.size() < want) {
        break;
      }
    }
    tally.add(params.queue(), Tally.DEAD, poisoned.size() + expired.size());
    return new LeaseResult(leased, poisoned, expired, discarded, crashPoisoned);
  }

  /**
   * The first round of a lease as one statement committed on its own, where the dialect can (see
   * {@link SqlDialect#singleStatementWrites}). It leases only candidates that were READY and may be
   * delivered; when it saw others (a lease that ran out, a message to kill) or may have unblocked
   * more of a stream, the rest of the lease is left to {@link #lease} in a transaction.
   *
   * @param result what this round leased
   * @param finished false when the rest of the lease still has to run
   */
  record FirstRound(LeaseResult result, boolean finished) {}

  boolean leasesAlone() {
    return claims != null;
  }

  FirstRound leaseAlone(Connection c, LeaseParams params) throws SQLException {
    Instant now = params.now();
    LeaseClaims.Round round =
        claims.claim(
            c,
            params.queue(),
            params.worker(),
            params.batch(),
            params.leaseTimeout(),
            now,
            params.max(),
            true);
    QueuePolicy policy = round.queue().policy();
    List<LeasedMessage> leased = new ArrayList<>(round.leases().size());
    boolean more = false;
    for (MessageRow row : round.rows()) {
      LeaseClaims.Lease lease = round.leases().get(row.seq());
      if (lease == null) {
        more = true;
        continue;
      }
      agree(
          row,
          true,
          DeliveryRules.onLease(row.attempts(), policy.maxAttempts(), expireAt(row), now));
      more |= row.stream() != null;
      leased.add(delivery(row, lease, policy));
    }
    boolean finished =
        leased.size() == params.max() || (!more && round.rows().size() < params.max());
    return new FirstRound(new LeaseResult(leased, List.of(), List.of(), List.of()), finished);
  }

  /**
   * The lease statement decides in SQL what {@link DeliveryRules#onLease} decides here; a row it
   * leased ({@code leased}) must be one the rules deliver, and (in a transaction, where it may
   * lease every kind) the other way round, except a lease that ran out in a queue that counts
   * crashes: the crash-loop breaker reads the message's history, so the statement leaves those rows
   * to {@link #lease}.
   */
  private static void agree(
      MessageRow row, boolean leased, LeaseVerdict verdict, QueuePolicy policy) {
    boolean leftToUs = row.leased() && policy.maxCrashes() > 0;
    if (leased != (verdict == LeaseVerdict.DELIVER && !leftToUs)) {
      throw new IllegalStateException(
          "lease statement and delivery rules disagree on message " + row.id());
    }
  }

  private static void agree(MessageRow row, boolean leased, LeaseVerdict verdict) {
    if (leased != (verdict == LeaseVerdict.DELIVER)) {
      throw new IllegalStateException(
          "lease statement and delivery rules disagree on message " + row.id());
    }
  }

  /** The delivery of a row the lease statement leased. */
  private static LeasedMessage delivery(
      MessageRow row, LeaseClaims.Lease lease, QueuePolicy policy) {
    return delivery(
        row, new LeaseToken(row.id(), lease.nonce()), policy, Instant.ofEpochMilli(lease.until()));
  }

  private static LeasedMessage delivery(
      MessageRow row, LeaseToken token, QueuePolicy policy, Instant leaseExpiry) {
    return new LeasedMessage(
        token.toString(),
        row.id(),
        row.queue(),
        row.type(),
        row.payload(),
        Json.headers(row.headers()),
        row.stream(),
        row.attempts() + 1,
        policy.maxAttempts(),
        row.progress(),
        Instant.ofEpochMilli(row.enqueuedAt()),
        leaseExpiry);
  }

  private List<MessageRow> candidates(
      Connection c, StreamPolicy policy, String queue, String batch, Instant now, int limit)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(candidateSql[policy.ordinal()])) {
      int i = 1;
      ps.setString(i++, queue);
      ps.setLong(i++, now.toEpochMilli());
      ps.setString(i++, batch);
      if (policy == StreamPolicy.RELEASE) {
        ps.setLong(i++, now.toEpochMilli());
      }
      ps.setLong(i++, now.toEpochMilli());
      ps.setInt(i, limit);
      try (ResultSet rs = ps.executeQuery()) {
        List<MessageRow> out = new ArrayList<>();
        while (rs.next()) {
          out.add(MessageRow.map(rs));
        }
        return out;
      }
    }
  }

  private List<LeasedMessage> take(
      Connection c,
      List<MessageRow> rows,
      String worker,
      String batch,
      Duration timeout,
      QueuePolicy policy,
      Instant now)
      throws SQLException {
    if (rows.isEmpty()) {
      return List.of();
    }
    Instant expiresAt = now.plus(timeout);
    List<LeasedMessage> out = new ArrayList<>(rows.size());
    List<String> ids = new ArrayList<>(rows.size());
    List<String> nonces = new ArrayList<>(rows.size());
    for (MessageRow row : rows) {
      LeaseToken token = LeaseToken.issue(row.id());
      ids.add(row.id());
      nonces.add(token.nonce());
      out.add(delivery(row, token, policy, Settling.capAtDeadline(row, expiresAt)));
    }
    if (dialect.batchesRowByRow()) {
      takeRowByRow(c, ids, nonces, worker, batch, now, expiresAt);
      return out;
    }
    // One UPDATE ... FROM for the whole batch: a statement per row costs the
    // database a parse/plan/execute each, which dominated batch leases.
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET state = 'LEASED', attempts = attempts + 1,"
                + " lease_token = v.token, lease_batch = ?, leased_by = ?, leased_at = ?,"
                + " visible_at = "
                + CAPPED_EXPIRY
                + " FROM "
                + dialect.pairs(rows.size())
                // The id list lets a plan prepared once for all batch sizes drive the update
                // from the id index, whatever row count it guesses for the pairs.
                + " WHERE redrive_messages.id = v.id AND redrive_messages.id "
                + dialect.in(rows.size()))) {
      int i = 1;
      ps.setString(i++, batch);
      ps.setString(i++, worker);
      ps.setLong(i++, now.toEpochMilli());
      ps.setLong(i++, expiresAt.toEpochMilli());
      ps.setLong(i++, expiresAt.toEpochMilli());
      i = dialect.bindPairs(ps, i, ids, nonces);
      dialect.bindIn(ps, i, ids);
      int updated = ps.executeUpdate();
      if (updated != rows.size()) {
        throw new SQLException(
            "lease updated " + updated + " of " + rows.size() + " locked rows", "40001");
      }
    }
    return out;
  }

  private static void takeRowByRow(
      Connection c,
      List<String> ids,
      List<String> nonces,
      String worker,
      String batch,
      Instant now,
      Instant expiresAt)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET state = 'LEASED', attempts = attempts + 1,"
                + " lease_token = ?, lease_batch = ?, leased_by = ?, leased_at = ?,"
                + " visible_at = "
                + CAPPED_EXPIRY
                + " WHERE id = ?")) {
      for (int r = 0; r < ids.size(); r++) {
        ps.setString(1, nonces.get(r));
        ps.setString(2, batch);
        ps.setString(3, worker);
        ps.setLong(4, now.toEpochMilli());
        ps.setLong(5, expiresAt.toEpochMilli());
        ps.setLong(6, expiresAt.toEpochMilli());
        ps.setString(7, ids.get(r));
        ps.addBatch();
      }
      for (int n : ps.executeBatch()) {
        if (n != 1) {
          throw new SQLException("lease found a locked row gone", "40001");
        }
      }
    }
  }

  /**
   * Closes the previous delivery of a message whose lease ran out: the attempt stays counted.
   *
   * @return the distinct workers it has crashed, this one included, when the queue counts crashes
   *     ({@code maxCrashes} > 0); else empty, without reading the history
   */
  private List<String> recordLeaseExpired(Connection c, MessageRow row, QueuePolicy policy)
      throws SQLException {
    Instant expiredAt = Instant.ofEpochMilli(row.visibleAt());
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
            null));
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
  private SettleResult crashPoison(
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

  private SettleResult poison(
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

  private SettleResult expire(
      Connection c, MessageRow row, QueuePolicy policy, QueueEndings endings, Instant now)
      throws SQLException {
    Expiry.record(history, c, row, policy, now);
    return deadLettering.kill(c, row, policy, endings, FailureReason.EXPIRED, now);
  }

  private static Instant expireAt(MessageRow row) {
    return row.expireAt() == null ? null : Instant.ofEpochMilli(row.expireAt());
  }
}
