package io.redrive.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * SQL for {@code redrive_flow_buckets}: one token bucket and slow-down hold per (queue, limit key),
 * the queue's own under {@link #QUEUE_KEY}. Read and written by {@link FlowGate} under the queue
 * row's lock in the lease transaction; {@link #hold} is written by a slow-down settle.
 *
 * <p>A bucket that is full and not held says nothing a missing one does not (a missing bucket is
 * full), so the lease that finds one so deletes it ({@link #delete}): the table holds only the keys
 * leased (with a rate) or held within their last period.
 */
final class FlowBuckets {
  /** The limit key of a queue's own bucket: a message's limit key is never blank. */
  static final String QUEUE_KEY = "";

  /**
   * A stored bucket.
   *
   * @param tokens tokens as of {@code refilledAt}
   * @param refilledAt epoch millis
   * @param heldUntil epoch millis until which the key is held (0: not held)
   */
  record Bucket(double tokens, long refilledAt, long heldUntil) {}

  private FlowBuckets() {}

  /** Every bucket of {@code queue}, by limit key. */
  static Map<String, Bucket> load(Connection c, String queue) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT limit_key, tokens, refilled_at, held_until FROM redrive_flow_buckets"
                + " WHERE queue = ?")) {
      ps.setString(1, queue);
      try (ResultSet rs = ps.executeQuery()) {
        Map<String, Bucket> out = new HashMap<>();
        while (rs.next()) {
          out.put(rs.getString(1), new Bucket(rs.getDouble(2), rs.getLong(3), rs.getLong(4)));
        }
        return out;
      }
    }
  }

  /** Stores the tokens of a bucket as of {@code now}, keeping its hold. */
  static void spend(Connection c, String queue, String key, double tokens, Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_flow_buckets AS b (queue, limit_key, tokens, refilled_at,"
                + " held_until) VALUES (?, ?, ?, ?, 0) ON CONFLICT (queue, limit_key) DO UPDATE"
                + " SET tokens = excluded.tokens, refilled_at = excluded.refilled_at")) {
      ps.setString(1, queue);
      ps.setString(2, key);
      ps.setDouble(3, tokens);
      ps.setLong(4, now.toEpochMilli());
      ps.executeUpdate();
    }
  }

  /**
   * Holds {@code key} of {@code queue} ({@link #QUEUE_KEY}: the whole queue) until {@code until} (a
   * later hold already there stays), and makes the queue's leases take the limited path until then.
   * A new bucket starts full ({@code fullTokens}).
   */
  static void hold(
      Connection c, String queue, String key, double fullTokens, Instant now, Instant until)
      throws SQLException {
    // The queue row first, and always written (so locked on PostgreSQL): buckets are then written
    // only under their queue row's lock, as a limited lease writes them, and the two cannot wait
    // on each other in a cycle.
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE redrive_queues SET flow_until = CASE WHEN flow_until < ? THEN ?"
                + " ELSE flow_until END WHERE name = ?")) {
      ps.setLong(1, until.toEpochMilli());
      ps.setLong(2, until.toEpochMilli());
      ps.setString(3, queue);
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO redrive_flow_buckets AS b (queue, limit_key, tokens, refilled_at,"
                + " held_until) VALUES (?, ?, ?, ?, ?) ON CONFLICT (queue, limit_key) DO UPDATE"
                + " SET held_until = CASE WHEN excluded.held_until > b.held_until"
                + " THEN excluded.held_until ELSE b.held_until END")) {
      ps.setString(1, queue);
      ps.setString(2, key);
      ps.setDouble(3, fullTokens);
      ps.setLong(4, now.toEpochMilli());
      ps.setLong(5, until.toEpochMilli());
      ps.executeUpdate();
    }
  }

  /** Deletes a bucket that is full and not held. */
  static void delete(Connection c, String queue, Iterable<String> keys) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM redrive_flow_buckets WHERE queue = ? AND limit_key = ?")) {
      for (String key : keys) {
        ps.setString(1, queue);
        ps.setString(2, key);
        ps.executeUpdate();
      }
    }
  }
}
