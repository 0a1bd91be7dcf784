package io.redrive.jdbc;

import io.redrive.queue.StreamPolicy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The candidates of a lease round where the lease is selected, then written ({@link Leasing}):
 * READY or LEASED rows whose {@code visible_at} has passed, in serve order {@code (visible_at -
 * head_start, seq)} (a message's head start is its priority × its queue's aging), filtered by the
 * stream head rule of the queue's stream policy and locked (skipping rows other transactions hold),
 * optionally only of some types. One statement text per stream policy, built once; a lease filtered
 * by type adds the type test to it.
 */
final class LeaseCandidates {
  private final SqlDialect dialect;
  private final String[] candidateSql = new String[StreamPolicy.values().length];

  LeaseCandidates(SqlDialect dialect) {
    this.dialect = dialect;
    for (StreamPolicy p : StreamPolicy.values()) {
      candidateSql[p.ordinal()] = candidateSql(p, "");
    }
  }

  /** The statement of {@code policy}; {@code typeTest} ("" or a type filter) joins the WHERE. */
  private String candidateSql(StreamPolicy policy, String typeTest) {
    String earlierBlocks =
        switch (policy) {
          case HOLD -> "p.state IN ('READY', 'LEASED')";
          case HALT -> "p.state IN ('READY', 'LEASED', 'DEAD')";
          case RELEASE -> "p.state IN ('READY', 'LEASED') AND p.visible_at <= ?";
        };
    return "SELECT "
        + MessageRow.COLUMNS
        + " FROM redrive_messages m"
        // The casts keep bound values out of the planner's sight. SQLite otherwise compiles this
        // statement again on every call (60-130 µs of a batch-1 lease, measured on a drain): it
        // looks at a bound LIMIT, and, once ANALYZE has left sqlite_stat4 samples, at a bound
        // value constraining an indexed column, and a statement whose plan looked at a value
        // recompiles whenever its parameters are bound or cleared. The plan is the serve index
        // either way.
        + " WHERE m.queue = CAST(? AS TEXT) AND m.state IN ('READY', 'LEASED')"
        + " AND m.visible_at <= CAST(? AS BIGINT)"
        // The serve index's expression, so that the index's range bounds the scan.
        + " AND m.visible_at - m.head_start <= CAST(? AS BIGINT)"
        + typeTest
        + " AND (m.stream IS NULL OR NOT EXISTS (SELECT 1 FROM redrive_messages p"
        + " WHERE p.queue = m.queue AND p.stream = m.stream AND p.seq <> m.seq"
        + " AND (p.lease_batch IS NULL OR p.lease_batch <> ?)"
        + " AND ((p.seq < m.seq AND "
        + earlierBlocks
        + ") OR (p.state = 'LEASED' AND p.visible_at > ?))))"
        + " ORDER BY m.visible_at - m.head_start, m.seq LIMIT CAST(? AS INTEGER) "
        + dialect.lockRowsSkipLocked("m");
  }

  /**
   * Up to {@code limit} candidates, locked; rows of the caller's {@code batch} never block. A
   * non-empty {@code types} keeps only candidates of those types (the stream head rule still counts
   * earlier messages of every type).
   */
  List<MessageRow> read(
      Connection c,
      StreamPolicy policy,
      String queue,
      String batch,
      Instant now,
      int limit,
      Set<String> types)
      throws SQLException {
    return read(c, policy, queue, batch, now, limit, types, Set.of());
  }

  /**
   * As {@link #read(Connection, StreamPolicy, String, String, Instant, int, Set)}, leaving out the
   * messages of {@code blockedKeys} (limit keys a flow limit holds back: {@link FlowGate}), so that
   * a key at its cap never hides other keys' messages behind the limit.
   */
  List<MessageRow> read(
      Connection c,
      StreamPolicy policy,
      String queue,
      String batch,
      Instant now,
      int limit,
      Set<String> types,
      Set<String> blockedKeys)
      throws SQLException {
    return read(c, policy, queue, batch, now, limit, types, blockedKeys, Set.of(), Set.of());
  }

  /**
   * As {@link #read(Connection, StreamPolicy, String, String, Instant, int, Set, Set)}, also
   * leaving out the messages whose last failure named one of {@code blockedDependencies} or whose
   * type is one of {@code blockedTypes} (what a held circuit keeps back: {@link CircuitGate}).
   */
  List<MessageRow> read(
      Connection c,
      StreamPolicy policy,
      String queue,
      String batch,
      Instant now,
      int limit,
      Set<String> types,
      Set<String> blockedKeys,
      Set<String> blockedDependencies,
      Set<String> blockedTypes)
      throws SQLException {
    // A filtered statement is made on each call; the unfiltered one (the common case) once.
    boolean plain =
        types.isEmpty()
            && blockedKeys.isEmpty()
            && blockedDependencies.isEmpty()
            && blockedTypes.isEmpty();
    String sql =
        plain
            ? candidateSql[policy.ordinal()]
            : candidateSql(
                policy,
                (types.isEmpty() ? "" : " AND m.type " + dialect.in(types.size()))
                    + (blockedKeys.isEmpty()
                        ? ""
                        : " AND (m.limit_key IS NULL OR NOT (m.limit_key "
                            + dialect.in(blockedKeys.size())
                            + "))")
                    + (blockedDependencies.isEmpty()
                        ? ""
                        : " AND (m.dependency IS NULL OR NOT (m.dependency "
                            + dialect.in(blockedDependencies.size())
                            + "))")
                    + (blockedTypes.isEmpty()
                        ? ""
                        : " AND NOT (m.type " + dialect.in(blockedTypes.size()) + ")"));
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      ps.setString(i++, queue);
      ps.setLong(i++, now.toEpochMilli());
      ps.setLong(i++, now.toEpochMilli());
      if (!types.isEmpty()) {
        i = dialect.bindIn(ps, i, types);
      }
      if (!blockedKeys.isEmpty()) {
        i = dialect.bindIn(ps, i, blockedKeys);
      }
      if (!blockedDependencies.isEmpty()) {
        i = dialect.bindIn(ps, i, blockedDependencies);
      }
      if (!blockedTypes.isEmpty()) {
        i = dialect.bindIn(ps, i, blockedTypes);
      }
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
}
