package io.redrive.jdbc;

import io.redrive.queue.ThroughputPoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The per-minute throughput tables (docs/engine.md, "Throughput counters"): counters added from a
 * node's memory ({@link #add(Connection, Map)}) or inside an application's transaction ({@link
 * #addInCallerTransaction}), depth snapshots taken by the maintenance sweep ({@link #recordDepth}),
 * the read that sums both per minute ({@link #read}) and retention.
 *
 * <p>Implementation notes. A counter row is keyed (queue, minute, slot). Where many writers run at
 * once (PostgreSQL), a write picks a slot at random among {@link SqlDialect#throughputSlots}, so
 * nodes writing at the same moment rarely meet on a row; rows go in key order, so no two writes
 * wait on each other in a cycle. An enqueue inside an application's transaction may hold its row
 * until the application commits; it writes the slot {@link SqlDialect#callerThroughputSlot} names,
 * which no concurrent transaction shares.
 */
final class ThroughputRows {
  /** Columns of the counters in {@link Tally}'s order. */
  private static final String UPSERT_SET =
      " ON CONFLICT (queue, minute, slot) DO UPDATE SET enqueued = a.enqueued + excluded.enqueued,"
          + " completed = a.completed + excluded.completed, failed = a.failed + excluded.failed,"
          + " dead = a.dead + excluded.dead";

  private static final long MINUTE_MS = 60_000L;

  private final SqlDialect dialect;
  private final String upsertOwn;
  private final String upsertCaller;

  ThroughputRows(SqlDialect dialect) {
    this.dialect = dialect;
    this.upsertOwn = upsert("?");
    this.upsertCaller = upsert(dialect.callerThroughputSlot());
  }

  private static String upsert(String slot) {
    return "INSERT INTO redrive_throughput AS a (queue, minute, slot, enqueued, completed, failed,"
        + " dead) VALUES (?, ?, "
        + slot
        + ", ?, ?, ?, ?)"
        + UPSERT_SET;
  }

  /** The epoch minute of {@code t}: the key every counter and snapshot row of its minute has. */
  static long minuteOf(Instant t) {
    return Math.floorDiv(t.toEpochMilli(), MINUTE_MS);
  }

  /** A slot for one write's counter rows. */
  private int slot() {
    int slots = dialect.throughputSlots();
    return slots <= 1 ? 0 : ThreadLocalRandom.current().nextInt(slots);
  }

  /**
   * Adds counts kept in memory ({@link PendingThroughput}) to their rows: one batch, in key order,
   * under one slot.
   */
  void add(Connection c, Map<PendingThroughput.Key, long[]> counts) throws SQLException {
    upsert(c, upsertOwn, counts, slot());
  }

  /**
   * Adds the tally's counts to {@code now}'s minute inside an application's transaction, which may
   * hold the row long (see the class notes): the transaction's last statement. Nothing is written
   * for an empty tally.
   */
  void addInCallerTransaction(Connection c, Tally tally, Instant now) throws SQLException {
    if (tally.isEmpty()) {
      return;
    }
    long minute = minuteOf(now);
    Map<PendingThroughput.Key, long[]> counts = new TreeMap<>();
    tally.byQueue().forEach((queue, n) -> counts.put(new PendingThroughput.Key(queue, minute), n));
    upsert(c, upsertCaller, counts, null);
  }

  /**
   * One batch of {@code sql} over {@code counts} in key order; a null slot is in the SQL itself.
   */
  private static void upsert(
      Connection c, String sql, Map<PendingThroughput.Key, long[]> counts, Integer slot)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (Map.Entry<PendingThroughput.Key, long[]> e : counts.entrySet()) {
        int i = 1;
        ps.setString(i++, e.getKey().queue());
        ps.setLong(i++, e.getKey().minute());
        if (slot != null) {
          ps.setInt(i++, slot);
        }
        for (long n : e.getValue()) {
          ps.setLong(i++, n);
        }
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /**
   * Writes every queue's depth at {@code now} for its minute, unless the minute has a snapshot: one
   * grouped read of the messages, once per minute whichever node comes first.
   */
  int recordDepth(Connection c, Instant now) throws SQLException {
    long minute = minuteOf(now);
    long t = now.toEpochMilli();
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_depth (queue, minute, ready, scheduled, leased, dead)"
                + " SELECT q.name, ?,"
                + " COALESCE(SUM(CASE WHEN m.state IN ('READY', 'LEASED') AND m.visible_at <= ?"
                + " THEN 1 ELSE 0 END), 0),"
                + " COALESCE(SUM(CASE WHEN m.state = 'READY' AND m.visible_at > ?"
                + " THEN 1 ELSE 0 END), 0),"
                + " COALESCE(SUM(CASE WHEN m.state = 'LEASED' AND m.visible_at > ?"
                + " THEN 1 ELSE 0 END), 0),"
                + " COALESCE(SUM(CASE WHEN m.state = 'DEAD' THEN 1 ELSE 0 END), 0)"
                + " FROM redrive_queues q LEFT JOIN redrive_messages m ON m.queue = q.name"
                + " WHERE NOT EXISTS (SELECT 1 FROM redrive_depth d WHERE d.minute = ?)"
                + " GROUP BY q.name"
                + " ON CONFLICT (queue, minute) DO NOTHING")) {
      ps.setLong(1, minute);
      ps.setLong(2, t);
      ps.setLong(3, t);
      ps.setLong(4, t);
      ps.setLong(5, minute);
      return ps.executeUpdate();
    }
  }

  /** One point per minute from {@code from} to {@code to}, both included; gaps are zeros. */
  List<ThroughputPoint> read(Connection c, List<String> queues, Instant from, Instant to)
      throws SQLException {
    long first = minuteOf(from);
    long last = minuteOf(to);
    Map<Long, long[]> counts = new HashMap<>();
    Map<Long, ThroughputPoint.Depth> depths = new HashMap<>();
    if (queues == null || !queues.isEmpty()) {
      String filter = queues == null ? "" : " AND queue " + dialect.in(queues.size());
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT minute, SUM(enqueued), SUM(completed), SUM(failed), SUM(dead)"
                  + " FROM redrive_throughput WHERE minute >= ? AND minute <= ?"
                  + filter
                  + " GROUP BY minute")) {
        bind(ps, first, last, queues);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            counts.put(
                rs.getLong(1),
                new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)});
          }
        }
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT minute, SUM(ready), SUM(scheduled), SUM(leased), SUM(dead)"
                  + " FROM redrive_depth WHERE minute >= ? AND minute <= ?"
                  + filter
                  + " GROUP BY minute")) {
        bind(ps, first, last, queues);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            depths.put(
                rs.getLong(1),
                new ThroughputPoint.Depth(
                    rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)));
          }
        }
      }
    }
    List<ThroughputPoint> out = new ArrayList<>((int) Math.max(0, last - first + 1));
    for (long m = first; m <= last; m++) {
      long[] n = counts.getOrDefault(m, new long[4]);
      out.add(
          new ThroughputPoint(
              Instant.ofEpochMilli(m * MINUTE_MS), n[0], n[1], n[2], n[3], depths.get(m)));
    }
    return out;
  }

  private void bind(PreparedStatement ps, long first, long last, List<String> queues)
      throws SQLException {
    ps.setLong(1, first);
    ps.setLong(2, last);
    if (queues != null) {
      dialect.bindIn(ps, 3, queues);
    }
  }

  /** Deletes the counters and snapshots of minutes before {@code before}; returns the rows. */
  int deleteOlder(Connection c, Instant before) throws SQLException {
    long minute = minuteOf(before);
    int deleted = 0;
    for (String table : List.of("redrive_throughput", "redrive_depth")) {
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM " + table + " WHERE minute < ?")) {
        ps.setLong(1, minute);
        deleted += ps.executeUpdate();
      }
    }
    return deleted;
  }

  /**
   * Forgets a deleted queue's throughput, so a queue created later under its name starts afresh.
   */
  void deleteQueue(Connection c, String queue) throws SQLException {
    for (String table : List.of("redrive_throughput", "redrive_depth")) {
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE queue = ?")) {
        ps.setString(1, queue);
        ps.executeUpdate();
      }
    }
  }
}
