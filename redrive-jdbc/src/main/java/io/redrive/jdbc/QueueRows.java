package io.redrive.jdbc;

import io.redrive.error.ConflictException;
import io.redrive.error.QueueNotFoundException;
import io.redrive.queue.DeadLetter;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.StreamPolicy;
import io.redrive.retry.Backoff;
import io.redrive.retry.ExponentialBackoff;
import io.redrive.retry.FixedBackoff;
import io.redrive.retry.Jitter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for the {@code redrive_queues} table and the dead-letter reference rules. */
final class QueueRows {
  static final String COLUMNS =
      "name, max_attempts, lease_timeout_ms, backoff_kind, backoff_initial_ms,"
          + " backoff_multiplier, backoff_max_ms, expire_after_ms, dead_letter_mode,"
          + " dead_letter_queue, stream_policy, max_crashes, paused, created_at, updated_at,"
          + " workflow_owned, completed_retention_ms, default_priority, priority_aging_ms,"
          + " backoff_jitter, circuit_failures, circuit_window_ms, circuit_probe_ms, circuit_waves,"
          + " circuit_learn";

  /** What a read of a queue selects: its columns and its flow-limit columns. */
  static final String SELECTED = COLUMNS + ", " + FlowLimitColumns.COLUMNS;

  private final SqlDialect dialect;

  QueueRows(SqlDialect dialect) {
    this.dialect = dialect;
  }

  Optional<Queue> find(Connection c, String name, boolean lock) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT "
                + SELECTED
                + " FROM redrive_queues q WHERE name = ?"
                + (lock ? " " + dialect.lockRows("q") : ""))) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(map(rs)) : Optional.empty();
      }
    }
  }

  /**
   * A queue read for a lease.
   *
   * @param limited its leases take the limited path now ({@link FlowLimitColumns#limitedAt})
   */
  record Leasable(Queue queue, boolean limited) {}

  Leasable requireLeasable(Connection c, String name, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + SELECTED + " FROM redrive_queues q WHERE name = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new QueueNotFoundException(name);
        }
        return new Leasable(map(rs), FlowLimitColumns.limitedAt(rs, now));
      }
    }
  }

  Queue require(Connection c, String name, boolean lock) throws SQLException {
    return find(c, name, lock).orElseThrow(() -> new QueueNotFoundException(name));
  }

  List<Queue> list(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement("SELECT " + SELECTED + " FROM redrive_queues ORDER BY name");
        ResultSet rs = ps.executeQuery()) {
      List<Queue> out = new ArrayList<>();
      while (rs.next()) {
        out.add(map(rs));
      }
      return out;
    }
  }

  Queue insert(Connection c, String name, QueuePolicy policy, boolean workflowOwned, Instant now)
      throws SQLException {
    if (find(c, name, true).isPresent()) {
      throw new ConflictException(
          ConflictException.QUEUE_EXISTS, "queue \"" + name + "\" already exists");
    }
    checkDeadLetterReferences(c, name, policy);
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_queues ("
                + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, name);
      int i = bindPolicy(ps, 2, policy);
      ps.setBoolean(i++, false);
      ps.setLong(i++, now.toEpochMilli());
      ps.setLong(i++, now.toEpochMilli());
      ps.setBoolean(i++, workflowOwned);
      bindRetention(ps, i++, policy);
      i = bindPriority(ps, i, policy);
      ps.setString(i++, policy.backoff().jitter().name());
      CircuitColumns.bind(ps, i, policy.circuit());
      ps.executeUpdate();
      if (!policy.limits().isEmpty()) {
        FlowLimitColumns.write(c, name, policy.limits());
      }
    } catch (SQLException e) {
      if (dialect.isUniqueViolation(e)) {
        // Created by another node between our read and our insert.
        throw new ConflictException(
            ConflictException.QUEUE_EXISTS, "queue \"" + name + "\" already exists");
      }
      throw e;
    }
    return require(c, name, false);
  }

  Queue update(Connection c, String name, QueuePolicy policy, Instant now) throws SQLException {
    checkDeadLetterReferences(c, name, policy);
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_queues SET max_attempts = ?, lease_timeout_ms = ?, backoff_kind = ?,"
                + " backoff_initial_ms = ?, backoff_multiplier = ?, backoff_max_ms = ?,"
                + " expire_after_ms = ?, dead_letter_mode = ?, dead_letter_queue = ?,"
                + " stream_policy = ?, max_crashes = ?, updated_at = ?, completed_retention_ms = ?,"
                + " default_priority = ?, priority_aging_ms = ?, backoff_jitter = ?,"
                + " circuit_failures = ?, circuit_window_ms = ?, circuit_probe_ms = ?,"
                + " circuit_waves = ?, circuit_learn = ? WHERE name = ?")) {
      int i = bindPolicy(ps, 1, policy);
      ps.setLong(i++, now.toEpochMilli());
      bindRetention(ps, i++, policy);
      i = bindPriority(ps, i, policy);
      ps.setString(i++, policy.backoff().jitter().name());
      i = CircuitColumns.bind(ps, i, policy.circuit());
      ps.setString(i, name);
      ps.executeUpdate();
    }
    FlowLimitColumns.write(c, name, policy.limits());
    return require(c, name, false);
  }

  Queue setPaused(Connection c, String name, boolean paused, Instant now) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_queues SET paused = ?, updated_at = ? WHERE name = ?")) {
      ps.setBoolean(1, paused);
      ps.setLong(2, now.toEpochMilli());
      ps.setString(3, name);
      if (ps.executeUpdate() == 0) {
        throw new QueueNotFoundException(name);
      }
    }
    return require(c, name, false);
  }

  void delete(Connection c, String name) throws SQLException {
    require(c, name, true);
    List<String> referrers = referrers(c, name);
    if (!referrers.isEmpty()) {
      throw new ConflictException(
          ConflictException.QUEUE_IN_USE,
          "queue \""
              + name
              + "\" is the dead-letter queue of "
              + quoted(referrers)
              + ": change "
              + (referrers.size() == 1 ? "that queue" : "those queues")
              + " first");
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_history WHERE message_id IN"
                + " (SELECT id FROM redrive_messages WHERE queue = ?)")) {
      ps.setString(1, name);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_messages WHERE queue = ?")) {
      ps.setString(1, name);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_flow_buckets WHERE queue = ?")) {
      ps.setString(1, name);
      ps.executeUpdate();
    }
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM redrive_queues WHERE name = ?")) {
      ps.setString(1, name);
      ps.executeUpdate();
    }
  }

  /**
   * The dead-letter rules: the DLQ must exist, must not be the queue itself, must not have a DLQ of
   * its own, and a queue that is some queue's DLQ cannot be given one.
   */
  private void checkDeadLetterReferences(Connection c, String name, QueuePolicy policy)
      throws SQLException {
    DeadLetter dl = policy.deadLetter();
    if (dl.mode() != DeadLetter.Mode.MOVE) {
      return;
    }
    String target = dl.queue();
    if (target.equals(name)) {
      throw new IllegalArgumentException(
          "deadLetterQueue: queue \"" + name + "\" cannot be its own dead-letter queue");
    }
    Queue dlq =
        find(c, target, true)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "deadLetterQueue: queue \""
                            + target
                            + "\" does not exist (create it before naming it as \""
                            + name
                            + "\"'s dead-letter queue)"));
    if (dlq.policy().deadLetter().mode() == DeadLetter.Mode.MOVE) {
      throw new IllegalArgumentException(
          "deadLetterQueue: queue \""
              + target
              + "\" already has its own dead-letter queue \""
              + dlq.policy().deadLetter().queue()
              + "\" (dead-letter queues cannot be chained)");
    }
    List<String> referrers = referrers(c, name);
    if (!referrers.isEmpty()) {
      throw new IllegalArgumentException(
          "deadLetterQueue: queue \""
              + name
              + "\" is the dead-letter queue of "
              + quoted(referrers)
              + " and cannot have one itself (dead-letter queues cannot be chained)");
    }
  }

  private List<String> referrers(Connection c, String name) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT name FROM redrive_queues WHERE dead_letter_mode = 'MOVE'"
                + " AND dead_letter_queue = ? ORDER BY name")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
          out.add(rs.getString(1));
        }
        return out;
      }
    }
  }

  private static String quoted(List<String> names) {
    return String.join(", ", names.stream().map(n -> "\"" + n + "\"").toList());
  }

  private static int bindPolicy(PreparedStatement ps, int i, QueuePolicy p) throws SQLException {
    ps.setInt(i++, p.maxAttempts());
    ps.setLong(i++, p.leaseTimeout().toMillis());
    if (p.backoff() instanceof ExponentialBackoff e) {
      ps.setString(i++, "EXPONENTIAL");
      ps.setLong(i++, e.initial().toMillis());
      ps.setDouble(i++, e.multiplier());
      ps.setLong(i++, e.max().toMillis());
    } else {
      FixedBackoff f = (FixedBackoff) p.backoff();
      ps.setString(i++, "FIXED");
      ps.setLong(i++, f.cooldown().toMillis());
      ps.setDouble(i++, 1.0);
      ps.setLong(i++, f.cooldown().toMillis());
    }
    if (p.expireAfter() == null) {
      ps.setNull(i++, Types.BIGINT);
    } else {
      ps.setLong(i++, p.expireAfter().toMillis());
    }
    ps.setString(i++, p.deadLetter().mode().name());
    ps.setString(i++, p.deadLetter().queue());
    ps.setString(i++, p.streamPolicy().name());
    ps.setInt(i++, p.maxCrashes());
    return i;
  }

  private static void bindRetention(PreparedStatement ps, int i, QueuePolicy p)
      throws SQLException {
    if (p.completedRetention() == null) {
      ps.setNull(i, Types.BIGINT); // follows the engine's default
    } else {
      ps.setLong(i, p.completedRetention().toMillis());
    }
  }

  private static int bindPriority(PreparedStatement ps, int i, QueuePolicy p) throws SQLException {
    ps.setInt(i++, p.priority().defaultPriority());
    ps.setLong(i++, p.priority().aging().toMillis());
    return i;
  }

  static Queue map(ResultSet rs) throws SQLException {
    return new Queue(
        rs.getString("name"),
        policy(rs),
        rs.getBoolean("paused"),
        Instant.ofEpochMilli(rs.getLong("created_at")),
        Instant.ofEpochMilli(rs.getLong("updated_at")),
        rs.getBoolean("workflow_owned"));
  }

  /** Reads a policy from a row holding the queue columns (also used in joins). */
  static QueuePolicy policy(ResultSet rs) throws SQLException {
    Jitter jitter = Jitter.valueOf(rs.getString("backoff_jitter"));
    Backoff backoff =
        "FIXED".equals(rs.getString("backoff_kind"))
            ? new FixedBackoff(Duration.ofMillis(rs.getLong("backoff_initial_ms")), jitter)
            : new ExponentialBackoff(
                Duration.ofMillis(rs.getLong("backoff_initial_ms")),
                rs.getDouble("backoff_multiplier"),
                Duration.ofMillis(rs.getLong("backoff_max_ms")),
                jitter);
    long expire = rs.getLong("expire_after_ms");
    Duration expireAfter = rs.wasNull() ? null : Duration.ofMillis(expire);
    DeadLetter.Mode mode = DeadLetter.Mode.valueOf(rs.getString("dead_letter_mode"));
    DeadLetter deadLetter =
        switch (mode) {
          case KEEP -> DeadLetter.keep();
          case DISCARD -> DeadLetter.discard();
          case MOVE -> DeadLetter.moveTo(rs.getString("dead_letter_queue"));
        };
    return new QueuePolicy(
        rs.getInt("max_attempts"),
        Duration.ofMillis(rs.getLong("lease_timeout_ms")),
        backoff,
        expireAfter,
        deadLetter,
        StreamPolicy.valueOf(rs.getString("stream_policy")),
        rs.getInt("max_crashes"),
        retention(rs.getLong("completed_retention_ms"), rs.wasNull()),
        new PriorityPolicy(
            rs.getInt("default_priority"), Duration.ofMillis(rs.getLong("priority_aging_ms"))),
        FlowLimitColumns.limits(rs),
        CircuitColumns.policy(rs));
  }

  private static Duration retention(long millis, boolean absent) {
    return absent ? null : Duration.ofMillis(millis);
  }
}
