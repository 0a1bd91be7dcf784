package io.redrive.jdbc;

import io.redrive.deadletter.DeadGroup;
import io.redrive.deadletter.DeadGroupPage;
import io.redrive.deadletter.DeadGroupQuery;
import io.redrive.deadletter.Fingerprint;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.message.HistoryEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Dead-letter groups: the dead rows of some queues counted by {@code (queue, dead_fingerprint)} in
 * SQL, and the fill of rows dead since before fingerprints were stored.
 *
 * <p>Implementation notes. Every death stamps {@code dead_fingerprint} (see {@link DeadLettering});
 * only rows dead before the column existed have NULL. Those are filled lazily, in batches, by
 * whoever needs them first (a grouped read or a fingerprint filter of their queue), so a dead row
 * is never missing from the groups and a migration never rewrites a large table. The count runs on
 * the partial index {@code redrive_messages_dead_groups}; each group's latest message and its cause
 * are then read with one query per group and one for all causes.
 */
final class DeadGroups {
  /** Rows fingerprinted per fill transaction. */
  static final int FILL_BATCH = 500;

  private final SqlDialect dialect;
  private final HistoryRows history;

  DeadGroups(SqlDialect dialect, HistoryRows history) {
    this.dialect = dialect;
    this.history = history;
  }

  /** True when some dead row of {@code queues} (null: any queue) has no fingerprint yet. */
  boolean needsFill(Connection c, Collection<String> queues) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM redrive_messages m WHERE m.state = 'DEAD'"
                + " AND m.dead_fingerprint IS NULL"
                + queueFilter(queues)
                + " LIMIT 1")) {
      bindQueues(ps, 1, queues);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /**
   * Fingerprints up to {@code limit} dead rows of {@code queues} (null: any queue) that have none,
   * from their history; returns how many it found (fewer than {@code limit}: none is left).
   */
  int fill(Connection c, Collection<String> queues, int limit) throws SQLException {
    List<String> ids = new ArrayList<>();
    List<String> types = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.id, m.type, m.dead_reason FROM redrive_messages m WHERE m.state = 'DEAD'"
                + " AND m.dead_fingerprint IS NULL"
                + queueFilter(queues)
                + " ORDER BY m.seq LIMIT ? "
                + dialect.lockRowsSkipLocked("m"))) {
      int i = bindQueues(ps, 1, queues);
      ps.setInt(i, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getString(1));
          types.add(rs.getString(2));
          reasons.add(rs.getString(3));
        }
      }
    }
    if (ids.isEmpty()) {
      return 0;
    }
    Map<String, HistoryEntry> causes = history.lastFailures(c, ids, true);
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_messages SET dead_fingerprint = ? WHERE id = ? AND state = 'DEAD'"
                + " AND dead_fingerprint IS NULL")) {
      for (int r = 0; r < ids.size(); r++) {
        HistoryEntry cause = causes.get(ids.get(r));
        String key =
            Fingerprint.of(
                    reason(reasons.get(r)), types.get(r), cause == null ? null : cause.failure())
                .key();
        ps.setString(1, key);
        ps.setString(2, ids.get(r));
        ps.addBatch();
      }
      ps.executeBatch();
    }
    return ids.size();
  }

  /** One page of groups, largest first (rows must be filled first; see {@link #fill}). */
  DeadGroupPage read(Connection c, DeadGroupQuery q) throws SQLException {
    record Counted(String queue, String key, long count, long first, long last) {}
    List<Counted> counted = new ArrayList<>();
    boolean more = false;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.queue, m.dead_fingerprint, COUNT(*) AS n, MIN(m.dead_at), MAX(m.dead_at)"
                + " FROM redrive_messages m WHERE m.state = 'DEAD'"
                + queueFilter(q.queues())
                + " GROUP BY m.queue, m.dead_fingerprint"
                + " ORDER BY n DESC, m.dead_fingerprint, m.queue LIMIT ? OFFSET ?")) {
      int i = bindQueues(ps, 1, q.queues());
      ps.setInt(i++, q.limit() + 1);
      ps.setInt(i, q.offset());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (counted.size() == q.limit()) {
            more = true;
            break;
          }
          counted.add(
              new Counted(
                  rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
        }
      }
    }
    record Sample(String id, String type, String reason) {}
    List<Sample> samples = new ArrayList<>(counted.size());
    // The group's latest death is known (MAX(dead_at)); walking the index down from the highest
    // seq finds its row after a few entries (deaths come mostly in enqueue order), instead of
    // sorting the whole group.
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.id, m.type, m.dead_reason FROM redrive_messages m WHERE m.queue = ?"
                + " AND m.state = 'DEAD' AND m.dead_fingerprint = ? AND m.dead_at = ?"
                + " ORDER BY m.seq DESC LIMIT 1")) {
      for (Counted g : counted) {
        ps.setString(1, g.queue());
        ps.setString(2, g.key());
        ps.setLong(3, g.last());
        try (ResultSet rs = ps.executeQuery()) {
          // Null when the group changed between the reads (they share no snapshot).
          samples.add(
              rs.next() ? new Sample(rs.getString(1), rs.getString(2), rs.getString(3)) : null);
        }
      }
    }
    Map<String, HistoryEntry> causes =
        history.lastFailures(
            c, samples.stream().filter(s -> s != null).map(Sample::id).toList(), true);
    List<DeadGroup> groups = new ArrayList<>(counted.size());
    for (int g = 0; g < counted.size(); g++) {
      Counted n = counted.get(g);
      Sample s = samples.get(g);
      if (s == null) {
        continue;
      }
      HistoryEntry cause = causes.get(s.id());
      FailureRecord sampleCause = cause == null ? null : cause.failure();
      groups.add(
          new DeadGroup(
              n.queue(),
              n.key(),
              reason(s.reason()),
              s.type(),
              n.count(),
              Instant.ofEpochMilli(n.first()),
              Instant.ofEpochMilli(n.last()),
              s.id(),
              sampleCause));
    }
    return new DeadGroupPage(groups, more ? q.offset() + q.limit() : null);
  }

  private static FailureReason reason(String name) {
    return name == null ? FailureReason.UNKNOWN : FailureReason.valueOf(name);
  }

  private String queueFilter(Collection<String> queues) {
    if (queues == null) {
      return "";
    }
    return queues.isEmpty() ? " AND 1 = 0" : " AND m.queue " + dialect.in(queues.size());
  }

  private int bindQueues(PreparedStatement ps, int index, Collection<String> queues)
      throws SQLException {
    return queues == null || queues.isEmpty() ? index : dialect.bindIn(ps, index, queues);
  }
}
