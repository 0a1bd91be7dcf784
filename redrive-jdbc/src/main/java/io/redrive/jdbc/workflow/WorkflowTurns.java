package io.redrive.jdbc.workflow;

import io.redrive.error.TurnLostException;
import io.redrive.jdbc.SqlDialect;
import io.redrive.lease.LeaseToken;
import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.KnownHistory;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.RenewTurnParams;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.TurnRow;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Turn leases of workflow instances (docs/workflows.md): at most one live lease per instance, taken
 * under the instance's row lock (PostgreSQL {@code SKIP LOCKED}; SQLite's single writer), and every
 * later call of the turn checks its token in the same statement that changes the row.
 */
final class WorkflowTurns {
  /** The instance columns {@link WorkflowInstances#map} reads, named by the lease's alias. */
  private static final String QUALIFIED_COLUMNS =
      "w." + WorkflowInstances.COLUMNS.replace(", ", ", w.");

  private final SqlDialect dialect;

  WorkflowTurns(SqlDialect dialect) {
    this.dialect = dialect;
  }

  /**
   * Four statements for the common turn where a lease takes a transaction (SQLite): the pick (which
   * also locks the instance and reads its last lease, {@link #pick()}), the lease itself (returning
   * the instance), the inbox and the history; the turn rows since the last commit are read only on
   * a retry, the only time a decision reads them (crashes, the last failed try), and a lease that
   * ran out is recorded only when there is one.
   */
  Optional<TurnLease> lease(Connection c, LeaseTurnParams p) throws SQLException {
    if (dialect.singleStatementWrites()) {
      return leaseInOneStatement(c, p);
    }
    long now = p.now().toEpochMilli();
    String id;
    Held held;
    try (PreparedStatement ps = c.prepareStatement(pick())) {
      bindPick(ps, p);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        id = rs.getString(1);
        held =
            new Held(
                rs.getInt(2),
                rs.getInt(3),
                rs.getString(4),
                rs.getString(5),
                rs.getLong(6),
                rs.getLong(7),
                rs.getString(8));
      }
    }
    if (held.token() != null) {
      // The last lease ran out without a commit or an abandon: the node died, hung or lost its
      // connection. Its try stays counted, and its turn row says so.
      recordTurn(
          c,
          id,
          held,
          held.leaseExpiresAt(),
          "LEASE_EXPIRED",
          null,
          "the turn lease of " + held.leasedBy() + " ran out");
    }
    String token = LeaseToken.issue(id).nonce();
    long expires = p.now().plus(p.leaseTimeout()).toEpochMilli();
    InstanceRow instance;
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_instances SET lease_token = ?, leased_by = ?, leased_at = ?,"
                + " lease_expires_at = ?, leased_build = ?, turn_attempt = turn_attempt + 1"
                + " WHERE id = ? RETURNING "
                + WorkflowInstances.COLUMNS)) {
      ps.setString(1, token);
      ps.setString(2, p.node());
      ps.setLong(3, now);
      ps.setLong(4, expires);
      ps.setString(5, p.build());
      ps.setString(6, id);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        instance = WorkflowInstances.map(rs);
      }
    }
    return Optional.of(leased(c, p, instance, token));
  }

  /**
   * Whether a turn lease is one statement committed on its own ({@link #lease}); its lost answer is
   * a lease that runs out, which the next lease records as a crash like any other.
   */
  boolean leasesAlone() {
    return dialect.singleStatementWrites();
  }

  /**
   * The instance the next due turn belongs to, its row locked, with its last lease; a node skips
   * instances another node's lease holds or is taking, and passes over an instance that sticks to
   * another node until its row has been visible for {@code stickyWait} (one more condition on the
   * row it already joins).
   */
  private String pick() {
    return "SELECT i.id, i.execution_id, i.turn_attempt, i.lease_token, i.leased_by,"
        + " i.leased_at, i.lease_expires_at, i.leased_build"
        + " FROM redrive_wf_inbox b JOIN redrive_wf_instances i"
        + " ON i.id = b.instance_id"
        + " WHERE b.visible_at <= ? AND i.not_before <= ?"
        + " AND (i.lease_token IS NULL OR i.lease_expires_at <= ?)"
        + " AND (i.sticky_node IS NULL OR i.sticky_node = ? OR b.visible_at <= ?)"
        + " ORDER BY b.visible_at, b.seq LIMIT 1 "
        + dialect.lockRowsSkipLocked("i");
  }

  /** Binds {@link #pick()}'s parameters from 1; returns the next index. */
  private static int bindPick(PreparedStatement ps, LeaseTurnParams p) throws SQLException {
    long now = p.now().toEpochMilli();
    ps.setLong(1, now);
    ps.setLong(2, now);
    ps.setLong(3, now);
    ps.setString(4, p.node());
    ps.setLong(5, now - p.stickyWait().toMillis());
    return 6;
  }

  /**
   * The lease as one statement committed on its own (PostgreSQL's data-modifying {@code WITH}): the
   * pick, the turn row of a lease that ran out, and the lease itself returning the instance; then
   * the reads, which need no transaction, since only the lease holder's commit changes what they
   * read (the inbox's rows taken, the history).
   */
  private Optional<TurnLease> leaseInOneStatement(Connection c, LeaseTurnParams p)
      throws SQLException {
    long now = p.now().toEpochMilli();
    String token = LeaseToken.issue("turn").nonce();
    InstanceRow instance;
    try (PreparedStatement ps =
        c.prepareStatement(
            "WITH picked AS ("
                + pick()
                + "), expired AS (INSERT INTO redrive_wf_turns (instance_id, execution_id,"
                + " attempt, node, leased_at, ended_at, outcome, reason, message, build)"
                + " SELECT id, execution_id, turn_attempt, leased_by, leased_at,"
                + " lease_expires_at, 'LEASE_EXPIRED', NULL,"
                + " 'the turn lease of ' || COALESCE(leased_by, 'null') || ' ran out',"
                + " leased_build FROM picked WHERE lease_token IS NOT NULL)"
                + " UPDATE redrive_wf_instances w SET lease_token = ?, leased_by = ?,"
                + " leased_at = ?, lease_expires_at = ?, leased_build = ?,"
                + " turn_attempt = w.turn_attempt + 1 FROM picked WHERE w.id = picked.id"
                + " RETURNING "
                + QUALIFIED_COLUMNS)) {
      int i = bindPick(ps, p);
      ps.setString(i++, token);
      ps.setString(i++, p.node());
      ps.setLong(i++, now);
      ps.setLong(i++, p.now().plus(p.leaseTimeout()).toEpochMilli());
      ps.setString(i, p.build());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        instance = WorkflowInstances.map(rs);
      }
    }
    return Optional.of(leased(c, p, instance, token));
  }

  /** The lease of {@code instance} with what its turn reads. */
  private static TurnLease leased(
      Connection c, LeaseTurnParams p, InstanceRow instance, String token) throws SQLException {
    return new TurnLease(
        instance,
        token,
        instance.turnAttempt(),
        WorkflowReads.inbox(c, instance.id(), p.now().toEpochMilli(), p.maxBatch()),
        knownOrRead(c, instance, p.known()),
        instance.turnAttempt() > 1 ? turnsSinceCommit(c, instance.id()) : List.of());
  }

  /**
   * The node's own copy of the current execution's history when it matches the instance's counters
   * (events and bytes: history is append-only, so a copy as long as the stored one is the stored
   * one), else the stored rows.
   */
  private static List<HistoryRow> knownOrRead(
      Connection c, InstanceRow instance, KnownHistory known) throws SQLException {
    if (instance.historyEvents() == 0) {
      return List.of(); // the counter every append keeps: an execution's first turn reads nothing
    }
    List<HistoryRow> rows = known.of(instance);
    if (rows != null && rows.size() == instance.historyEvents()) {
      long bytes = 0;
      for (HistoryRow r : rows) {
        bytes += r.data().getBytes(StandardCharsets.UTF_8).length;
      }
      if (bytes == instance.historyBytes()
          && (rows.isEmpty() || rows.get(rows.size() - 1).eventId() == rows.size())) {
        return rows;
      }
    }
    return WorkflowReads.history(c, instance.id(), instance.executionId());
  }

  Instant renew(Connection c, RenewTurnParams p) throws SQLException {
    Instant expires = p.now().plus(p.leaseTimeout());
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_instances SET lease_expires_at = ?"
                + " WHERE id = ? AND lease_token = ? AND lease_expires_at > ?")) {
      ps.setLong(1, expires.toEpochMilli());
      ps.setString(2, p.instanceId());
      ps.setString(3, p.token());
      ps.setLong(4, p.now().toEpochMilli());
      if (ps.executeUpdate() == 0) {
        throw new TurnLostException(p.instanceId());
      }
    }
    return expires;
  }

  void abandon(Connection c, AbandonTurnParams p) throws SQLException {
    Held held = held(c, p.instanceId(), p.token());
    long now = p.now().toEpochMilli();
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_instances SET lease_token = NULL, leased_by = NULL,"
                + " leased_at = NULL, lease_expires_at = NULL, sticky_node = NULL, not_before = ?,"
                + " turn_attempt = CASE WHEN ? AND turn_attempt > 0 THEN turn_attempt - 1"
                + " ELSE turn_attempt END, updated_at = ? WHERE id = ? AND lease_token = ?")) {
      ps.setLong(1, p.now().plus(p.delay()).toEpochMilli());
      ps.setBoolean(2, p.refund());
      ps.setLong(3, now);
      ps.setString(4, p.instanceId());
      ps.setString(5, p.token());
      if (ps.executeUpdate() == 0) {
        throw new TurnLostException(p.instanceId());
      }
    }
    recordTurn(
        c,
        p.instanceId(),
        held,
        now,
        p.refund() ? "REFUNDED" : p.outcome(),
        p.reason(),
        p.message());
  }

  /** The lease fields of an instance, locked; with a token, only while that token holds it. */
  private Held held(Connection c, String id, String token) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT execution_id, turn_attempt, lease_token, leased_by, leased_at,"
                + " lease_expires_at, leased_build FROM redrive_wf_instances w WHERE id = ?"
                + (token == null ? "" : " AND lease_token = ?")
                + " "
                + dialect.lockRows("w"))) {
      ps.setString(1, id);
      if (token != null) {
        ps.setString(2, token);
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new TurnLostException(id);
        }
        return new Held(
            rs.getInt(1),
            rs.getInt(2),
            rs.getString(3),
            rs.getString(4),
            rs.getLong(5),
            rs.getLong(6),
            rs.getString(7));
      }
    }
  }

  private static void recordTurn(
      Connection c,
      String id,
      Held held,
      long endedAt,
      String outcome,
      String reason,
      String message)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_wf_turns (instance_id, execution_id, attempt, node, leased_at,"
                + " ended_at, outcome, reason, message, build) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " ?)")) {
      ps.setString(1, id);
      ps.setInt(2, held.executionId());
      ps.setInt(3, held.attempt());
      ps.setString(4, held.leasedBy());
      ps.setLong(5, held.leasedAt());
      ps.setLong(6, endedAt);
      ps.setString(7, outcome);
      ps.setString(8, reason);
      ps.setString(9, message);
      ps.setString(10, held.leasedBuild());
      ps.executeUpdate();
    }
  }

  /** The tries since the instance's last commit that ended without one, oldest first. */
  private static List<TurnRow> turnsSinceCommit(Connection c, String id) throws SQLException {
    return WorkflowReads.turnRows(c, id, true);
  }

  /**
   * When the next turn is due for {@code node}: for each waiting row, the latest of its visibility
   * (plus {@code stickyWait} when its instance sticks to another node), its instance's {@code
   * not_before} and the expiry of a lease that holds the instance; the earliest of those.
   */
  static Optional<Instant> nextDueAt(Connection c, String node, Duration stickyWait)
      throws SQLException {
    String visible =
        "(b.visible_at + CASE WHEN i.sticky_node IS NULL OR i.sticky_node = ? THEN 0 ELSE ? END)";
    String ready =
        "CASE WHEN i.not_before > " + visible + " THEN i.not_before ELSE " + visible + " END";
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT MIN(CASE WHEN i.lease_token IS NOT NULL AND i.lease_expires_at > "
                + ready
                + " THEN i.lease_expires_at ELSE "
                + ready
                + " END) FROM redrive_wf_inbox b JOIN redrive_wf_instances i"
                + " ON i.id = b.instance_id")) {
      for (int i = 0; i < 4; i++) { // "visible" twice in "ready", which is there twice
        ps.setString(2 * i + 1, node);
        ps.setLong(2 * i + 2, stickyWait.toMillis());
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        long due = rs.getLong(1);
        return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(due));
      }
    }
  }

  /** Lets go of the instances that stick to {@code node}; returns how many there were. */
  static int releaseSticky(Connection c, String node) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_wf_instances SET sticky_node = NULL WHERE sticky_node = ?")) {
      ps.setString(1, node);
      return ps.executeUpdate();
    }
  }

  /** What an instance's row says of its lease. */
  private record Held(
      int executionId,
      int attempt,
      String token,
      String leasedBy,
      long leasedAt,
      long leaseExpiresAt,
      String leasedBuild) {}
}
