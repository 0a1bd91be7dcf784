package io.redrive.jdbc;

import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writing the leases of rows a lease round selected and judged deliverable ({@link Leasing}): a
 * fresh token each, attempts counted, the caller's {@code lease_batch}, and a lease expiry capped
 * at the message's deadline; and the {@link LeasedMessage} handed out for each.
 */
final class LeaseWrites {
  /**
   * Marks a lease of the limited path for the running index (only leases with a key are in it, so
   * the leases of unlimited queues write no entry there); the empty key reads back as none.
   */
  private static final String COUNTED_KEY = " limit_key = COALESCE(limit_key, ''),";

  /**
   * The lease expiry, capped at the message's deadline so a lease never outlives it; binds the
   * uncapped expiry twice.
   */
  private static final String CAPPED_EXPIRY =
      "CASE WHEN expire_at IS NOT NULL AND expire_at < ? THEN expire_at ELSE ? END";

  private final SqlDialect dialect;

  LeaseWrites(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** A lease never runs past its message's deadline: the sweep takes the message there. */
  static Instant capAtDeadline(MessageRow row, Instant leaseExpiry) {
    if (row.expireAt() != null && row.expireAt() < leaseExpiry.toEpochMilli()) {
      return Instant.ofEpochMilli(row.expireAt());
    }
    return leaseExpiry;
  }

  /** The delivery of a row the lease statement leased. */
  static LeasedMessage delivery(MessageRow row, LeaseClaims.Lease lease, QueuePolicy policy) {
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
        leaseExpiry,
        row.priority(),
        row.limitKey(),
        Instant.ofEpochMilli(row.visibleAt()));
  }

  /**
   * Leases {@code rows}, which the caller holds locked, to {@code worker}.
   *
   * @param counted whether the flow limits count these leases (the limited path): a row without a
   *     limit key is then marked with the empty key, which puts it in the running index
   */
  List<LeasedMessage> take(
      Connection c,
      List<MessageRow> rows,
      String worker,
      String batch,
      Duration timeout,
      QueuePolicy policy,
      Instant now,
      boolean counted)
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
      out.add(delivery(row, token, policy, capAtDeadline(row, expiresAt)));
    }
    if (dialect.batchesRowByRow()) {
      takeRowByRow(c, ids, nonces, worker, batch, now, expiresAt, counted);
      return out;
    }
    // One UPDATE ... FROM for the whole batch: a statement per row costs the
    // database a parse/plan/execute each, which dominated batch leases.
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET state = 'LEASED', attempts = attempts + 1,"
                + (counted ? COUNTED_KEY : "")
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
      Instant expiresAt,
      boolean counted)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET state = 'LEASED', attempts = attempts + 1,"
                + (counted ? COUNTED_KEY : "")
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
}
