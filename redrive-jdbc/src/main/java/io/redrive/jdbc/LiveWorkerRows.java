package io.redrive.jdbc;

import io.redrive.lease.LiveWorker;
import io.redrive.lease.WaitingType;
import io.redrive.store.LiveWorkerParams;
import io.redrive.store.LiveWorkersParams;
import io.redrive.store.WaitingTypesParams;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The statements of the live-worker records ({@code redrive_live_workers}: one row per queue, type
 * and worker, the empty type standing for a lease of every type) and the read of a queue's waiting
 * types. None of them is on the lease, enqueue or settle path: the engine writes a worker's row at
 * most once per {@link LiveWorker#RECORD_INTERVAL}, and the reads serve the unserved-types check.
 */
final class LiveWorkerRows {
  /** The type stored for a lease that named no types; never a valid type (blank is refused). */
  static final String EVERY_TYPE = "";

  /** Records older than this are forgotten when their queue's records are written. */
  static final Duration KEPT = Duration.ofDays(1);

  private LiveWorkerRows() {}

  static Void record(Connection c, LiveWorkerParams p) throws SQLException {
    long now = p.now().toEpochMilli();
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_live_workers (queue, type, worker, last_lease_at)"
                + " VALUES (?, ?, ?, ?) ON CONFLICT (queue, type, worker)"
                + " DO UPDATE SET last_lease_at = excluded.last_lease_at")) {
      Set<String> types = p.types().isEmpty() ? Set.of(EVERY_TYPE) : new TreeSet<>(p.types());
      for (String type : types) {
        ps.setString(1, p.queue());
        ps.setString(2, type);
        ps.setString(3, p.worker());
        ps.setLong(4, now);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "DELETE FROM redrive_live_workers WHERE queue = ? AND last_lease_at < ?")) {
      ps.setString(1, p.queue());
      ps.setLong(2, now - KEPT.toMillis());
      ps.executeUpdate();
    }
    return null;
  }

  static List<LiveWorker> live(Connection c, LiveWorkersParams p) throws SQLException {
    Map<String, List<String>> types = new LinkedHashMap<>();
    Map<String, Long> last = new LinkedHashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT worker, type, last_lease_at FROM redrive_live_workers"
                + " WHERE queue = ? AND last_lease_at >= ? ORDER BY worker, type")) {
      ps.setString(1, p.queue());
      ps.setLong(2, p.since().toEpochMilli());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String worker = rs.getString(1);
          List<String> named = types.computeIfAbsent(worker, w -> new ArrayList<>());
          if (!EVERY_TYPE.equals(rs.getString(2))) {
            named.add(rs.getString(2));
          } else {
            named.add(null); // an untyped lease: the worker takes every type
          }
          last.merge(worker, rs.getLong(3), Math::max);
        }
      }
    }
    List<LiveWorker> out = new ArrayList<>();
    types.forEach(
        (worker, named) ->
            out.add(
                new LiveWorker(
                    worker,
                    p.queue(),
                    named.contains(null) ? Set.of() : Set.copyOf(named),
                    Instant.ofEpochMilli(last.get(worker)))));
    return out;
  }

  /**
   * Walks the serve index from its oldest entry (the index's own expression, so both stores read it
   * in order and stop at the limit), keeping ready messages visible by {@code readyBefore}.
   */
  static List<WaitingType> waiting(Connection c, WaitingTypesParams p) throws SQLException {
    List<WaitingType> out = new ArrayList<>();
    long before = p.readyBefore().toEpochMilli();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT type, MIN(visible_at) FROM (SELECT type, visible_at, state"
                + " FROM redrive_messages m WHERE m.queue = ? AND m.state IN ('READY', 'LEASED')"
                + " AND m.visible_at - m.head_start <= CAST(? AS BIGINT)"
                + " ORDER BY m.visible_at - m.head_start, m.seq LIMIT CAST(? AS INTEGER)) oldest"
                + " WHERE state = 'READY' AND visible_at <= ? GROUP BY type ORDER BY type")) {
      ps.setString(1, p.queue());
      ps.setLong(2, before);
      ps.setInt(3, p.scanLimit());
      ps.setLong(4, before);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new WaitingType(p.queue(), rs.getString(1), Instant.ofEpochMilli(rs.getLong(2))));
        }
      }
    }
    return out;
  }
}
