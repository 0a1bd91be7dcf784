package io.redrive.jdbc;

import io.redrive.error.QueueNotFoundException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseToken;
import io.redrive.queue.Queue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One round of a lease as a single PostgreSQL statement: it reads the queue row (pause, stream
 * policy, attempts, lease timeout), locks the candidates in serve order, leases those that the
 * delivery rules let through (deadline not passed, attempts left) and answers with every
 * candidate's row as it was before, the lease each one got, and the queue. Candidates it did not
 * lease are the rare ones that die at lease (expired or poisoned); {@link Leasing} handles them
 * with follow-up statements.
 *
 * <p>Implementation notes. Before, a round cost three round trips (queue read, locking select,
 * update); the benchmark's raw-SQL baseline claims in one. The stream head rule is the same as
 * {@link Leasing}'s per-policy queries, written once with the policy taken from the queue row. The
 * nonces come from Java (128 random bits each, as {@link LeaseToken#issue} makes them), one per
 * wanted row, matched to the locked rows by their rank in serve order.
 */
final class LeaseClaims {
  private static final String SQL_OF_LIMIT =
      "WITH q AS (SELECT "
          + QueueRows.SELECTED
          + " FROM redrive_queues WHERE name = ?),"
          + " c0 AS (SELECT "
          + MessageRow.COLUMNS
          + " FROM redrive_messages m, q"
          // A queue with flow limits (or a slow-down hold) leases on the limited path (Leasing with
          // a FlowGate) instead. As
          // an uncorrelated EXISTS the queue test is a one-time filter, checked before the scan:
          // as a join filter it was checked per candidate, and a paused or limited queue's claim
          // walked its whole backlog to lease nothing (10 ms on 20 000 messages).
          + " WHERE m.queue = ? AND EXISTS (SELECT 1 FROM q WHERE NOT q.paused"
          + " AND q.flow_until <= ?)"
          + " AND m.state IN ('READY', 'LEASED') AND m.visible_at <= ?"
          + " AND m.visible_at - m.head_start <= ?%s"
          + " AND (m.stream IS NULL OR NOT EXISTS (SELECT 1 FROM redrive_messages p"
          + " WHERE p.queue = m.queue AND p.stream = m.stream AND p.seq <> m.seq"
          + " AND (p.lease_batch IS NULL OR p.lease_batch <> ?)"
          + " AND ((p.seq < m.seq AND (p.state IN ('READY', 'LEASED')"
          + " AND (q.stream_policy <> 'RELEASE' OR p.visible_at <= ?)"
          + " OR q.stream_policy = 'HALT' AND p.state = 'DEAD'))"
          + " OR (p.state = 'LEASED' AND p.visible_at > ?))))"
          + " ORDER BY m.visible_at - m.head_start, m.seq LIMIT %d FOR UPDATE OF m SKIP LOCKED),"
          + " c AS (SELECT c0.*,"
          + " row_number() OVER (ORDER BY c0.visible_at - c0.head_start, c0.seq) AS rn FROM c0),"
          + " u AS (UPDATE redrive_messages m SET state = 'LEASED', attempts = m.attempts + 1,"
          + " lease_token = n.nonce, lease_batch = ?, leased_by = ?, leased_at = ?,"
          + " visible_at = CASE WHEN m.expire_at IS NOT NULL"
          + " AND m.expire_at < ? + COALESCE(CAST(? AS bigint), q.lease_timeout_ms)"
          + " THEN m.expire_at ELSE ? + COALESCE(CAST(? AS bigint), q.lease_timeout_ms) END"
          + " FROM c JOIN unnest(CAST(? AS text[])) WITH ORDINALITY AS n(nonce, rn)"
          + " ON n.rn = c.rn, q"
          + " WHERE m.seq = c.seq AND (c.expire_at IS NULL OR c.expire_at > ?)"
          + " AND c.attempts < q.max_attempts AND (c.state = 'READY' OR (? AND q.max_crashes = 0))"
          + " RETURNING m.seq, m.lease_token, m.visible_at)"
          + " SELECT "
          + MessageRow.columnsOf("c")
          + ", u.lease_token AS claimed_token, u.visible_at AS claimed_until, q.*"
          + " FROM q LEFT JOIN c ON true LEFT JOIN u ON u.seq = c.seq ORDER BY c.rn";

  /**
   * The statement text of each limit, made on first use. The limit is a literal: with a parameter
   * the generic plan had to guess a tenth of the table for it, and so PostgreSQL planned this
   * statement afresh on every call (1.3 to 1.9 ms of planning against 0.2 to 0.3 ms of running it
   * with the generic plan, measured on a 30,000-message queue); with a literal, its generic plan is
   * used from the sixth call of a connection on. Workers lease a few distinct sizes.
   */
  private final String[] sqlByLimit = new String[LeaseRequest.MAX_BATCH + 1];

  private final SqlDialect dialect;

  LeaseClaims(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /** Column of the lease a candidate got (null when it was not leased). */
  private static final int CLAIMED_TOKEN = MessageRow.COLUMN_COUNT + 1;

  private static final int CLAIMED_UNTIL = MessageRow.COLUMN_COUNT + 2;

  /**
   * What one round found.
   *
   * @param queue the queue row read by the statement
   * @param rows the candidates as they were before the round, in serve order
   * @param leases by candidate seq, the lease each leased candidate got
   * @param limited the queue has flow limits or a slow-down hold: the statement leased nothing, and
   *     the lease is the limited path's ({@link FlowGate})
   */
  record Round(Queue queue, List<MessageRow> rows, Map<Long, Lease> leases, boolean limited) {}

  /** The lease a candidate got: its nonce and its lease expiry (epoch millis). */
  record Lease(String nonce, long until) {}

  /**
   * Runs one round.
   *
   * @param readyOnly lease only candidates that were READY: one whose lease ran out needs its
   *     LEASE_EXPIRED history entry written in the same transaction, so a round committed on its
   *     own leaves it (and the candidates that die) to a transaction. Even in a transaction, a
   *     lease that ran out in a queue with a crash-loop breaker ({@code maxCrashes} > 0) is left to
   *     {@link Leasing}, which must read the message's history to decide it
   * @param types the only types to claim, or empty for every type
   * @throws QueueNotFoundException when the queue does not exist
   */
  Round claim(
      Connection c,
      String queue,
      String worker,
      String batch,
      Duration leaseTimeout,
      Instant now,
      int limit,
      boolean readyOnly,
      Set<String> types)
      throws SQLException {
    long t = now.toEpochMilli();
    try (PreparedStatement ps = c.prepareStatement(sql(limit, types))) {
      int i = 1;
      ps.setString(i++, queue);
      ps.setString(i++, queue);
      ps.setLong(i++, t); // flow_until
      ps.setLong(i++, t); // visible_at
      ps.setLong(i++, t); // visible_at - head_start
      if (!types.isEmpty()) {
        i = dialect.bindIn(ps, i, types);
      }
      ps.setString(i++, batch);
      ps.setLong(i++, t);
      ps.setLong(i++, t);
      ps.setString(i++, batch);
      ps.setString(i++, worker);
      ps.setLong(i++, t);
      for (int twice = 0; twice < 2; twice++) {
        ps.setLong(i++, t);
        if (leaseTimeout == null) {
          ps.setNull(i++, Types.BIGINT);
        } else {
          ps.setLong(i++, leaseTimeout.toMillis());
        }
      }
      ps.setString(i++, nonces(limit));
      ps.setLong(i++, t);
      ps.setBoolean(i, !readyOnly);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new QueueNotFoundException(queue);
        }
        Queue q = QueueRows.map(rs);
        boolean limited = FlowLimitColumns.limitedAt(rs, now);
        List<MessageRow> rows = new ArrayList<>();
        Map<Long, Lease> leases = new HashMap<>();
        do {
          rs.getLong(1);
          if (rs.wasNull()) {
            break; // the queue alone: no candidate
          }
          MessageRow row = MessageRow.map(rs);
          rows.add(row);
          String nonce = rs.getString(CLAIMED_TOKEN);
          if (nonce != null) {
            leases.put(row.seq(), new Lease(nonce, rs.getLong(CLAIMED_UNTIL)));
          }
        } while (rs.next());
        return new Round(q, rows, leases, limited);
      }
    }
  }

  /**
   * The statement for {@code limit}; a lease filtered by type adds its membership test to the
   * candidates (made on each call: the unfiltered text, the common case, stays as it was).
   */
  private String sql(int limit, Set<String> types) {
    if (!types.isEmpty()) {
      return String.format(SQL_OF_LIMIT, " AND m.type " + dialect.in(types.size()), limit);
    }
    if (limit >= sqlByLimit.length) {
      return String.format(SQL_OF_LIMIT, "", limit);
    }
    String sql = sqlByLimit[limit];
    if (sql == null) {
      sql = String.format(SQL_OF_LIMIT, "", limit);
      sqlByLimit[limit] = sql; // a benign race: every thread makes the same text
    }
    return sql;
  }

  /** {@code count} fresh nonces as a text-array literal. */
  private static String nonces(int count) {
    StringBuilder sb = new StringBuilder(2 + count * 33);
    sb.append('{');
    for (int n = 0; n < count; n++) {
      if (n > 0) {
        sb.append(',');
      }
      sb.append(LeaseToken.issue("").nonce());
    }
    return sb.append('}').toString();
  }
}
