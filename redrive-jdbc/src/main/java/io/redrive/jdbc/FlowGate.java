package io.redrive.jdbc;

import io.redrive.queue.FlowLimits;
import io.redrive.queue.Rate;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The flow limits of one limited lease: what runs now, the token buckets and the holds of the
 * queue, read once under the queue row's lock ({@link #open}), then asked per candidate ({@link
 * #admit}) and written back at the end ({@link #close}). One per lease transaction; not
 * thread-safe.
 *
 * <p>Implementation notes. The lock is its own statement before the counts: in READ COMMITTED a
 * statement's snapshot is taken when it starts, so a count begun before the lock was granted could
 * miss leases committed by the transaction that held it. Every limited lease of the queue takes the
 * same lock, so the counts and buckets read here stay true until this transaction commits. A bucket
 * refills by the time elapsed since it was last written (never negative, whatever the clocks of the
 * nodes say), up to its rate's {@code leases}; a lease takes one token.
 */
final class FlowGate {
  private final String queue;
  private final FlowLimits limits;
  private final Instant now;
  private int running;
  private final Map<String, Integer> runningByKey;
  private final Map<String, FlowBuckets.Bucket> stored;
  private final Map<String, Double> tokens = new HashMap<>();
  private final Set<String> spent = new HashSet<>();
  private final Set<String> blocked = new HashSet<>();
  private final boolean queueHeld;

  private FlowGate(
      String queue,
      FlowLimits limits,
      Instant now,
      Map<String, Integer> runningByKey,
      Map<String, FlowBuckets.Bucket> stored) {
    this.queue = queue;
    this.limits = limits;
    this.now = now;
    this.runningByKey = runningByKey;
    this.stored = stored;
    for (int n : runningByKey.values()) {
      running += n;
    }
    FlowBuckets.Bucket own = stored.get(FlowBuckets.QUEUE_KEY);
    this.queueHeld = own != null && own.heldUntil() > now.toEpochMilli();
    for (Map.Entry<String, FlowBuckets.Bucket> e : stored.entrySet()) {
      if (!e.getKey().equals(FlowBuckets.QUEUE_KEY) && !mayRun(e.getKey())) {
        blocked.add(e.getKey());
      }
    }
    for (Map.Entry<String, Integer> e : runningByKey.entrySet()) {
      if (e.getKey() != null && !mayRun(e.getKey())) {
        blocked.add(e.getKey());
      }
    }
  }

  /**
   * Locks the queue row and reads what the limits need. {@code lock} is the dialect's exclusive row
   * lock clause (none on SQLite, whose single writer already serialises the lease).
   */
  static FlowGate open(Connection c, String queue, FlowLimits limits, String lock, Instant now)
      throws SQLException {
    if (lock != null && !lock.isEmpty()) {
      try (PreparedStatement ps =
          c.prepareStatement("SELECT q.name FROM redrive_queues q WHERE q.name = ? " + lock)) {
        ps.setString(1, queue);
        ps.executeQuery().close();
      }
    }
    Map<String, Integer> running = new HashMap<>();
    if (limits.maxRunning() != null || limits.maxRunningPerKey() != null || lock == null) {
      try (PreparedStatement ps =
          c.prepareStatement(
              // Only the limited path's leases carry a key (the empty one for none): the
              // running index holds them alone, so unlimited queues pay nothing for it.
              "SELECT limit_key, COUNT(*) FROM redrive_messages WHERE queue = ?"
                  + " AND state = 'LEASED' AND limit_key IS NOT NULL AND visible_at > ?"
                  + " GROUP BY limit_key")) {
        ps.setString(1, queue);
        ps.setLong(2, now.toEpochMilli());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            running.merge(MessageRow.limitKey(rs.getString(1)), rs.getInt(2), Integer::sum);
          }
        }
      }
    }
    return new FlowGate(queue, limits, now, running, FlowBuckets.load(c, queue));
  }

  /** The queue's standing against its limits (read without the lock: a snapshot). */
  io.redrive.queue.FlowStatus status() {
    int atCap = 0;
    Integer cap = limits.maxRunningPerKey();
    for (Map.Entry<String, Integer> e : runningByKey.entrySet()) {
      if (e.getKey() != null && cap != null && e.getValue() >= cap) {
        atCap++;
      }
    }
    int held = 0;
    for (Map.Entry<String, FlowBuckets.Bucket> e : stored.entrySet()) {
      if (!e.getKey().equals(FlowBuckets.QUEUE_KEY)
          && e.getValue().heldUntil() > now.toEpochMilli()) {
        held++;
      }
    }
    FlowBuckets.Bucket own = stored.get(FlowBuckets.QUEUE_KEY);
    return new io.redrive.queue.FlowStatus(
        running, atCap, held, queueHeld ? Instant.ofEpochMilli(own.heldUntil()) : null);
  }

  /** The keys none of whose messages may be leased now (at their cap, out of tokens, held). */
  Set<String> blockedKeys() {
    return blocked;
  }

  /** How many of {@code want} leases the queue-wide limits leave room for now. */
  int room(int want) {
    if (queueHeld) {
      return 0;
    }
    long room = want;
    if (limits.maxRunning() != null) {
      room = Math.min(room, limits.maxRunning() - running);
    }
    if (limits.rate() != null) {
      room = Math.min(room, (long) Math.floor(tokens(FlowBuckets.QUEUE_KEY, limits.rate())));
    }
    return (int) Math.max(0, room);
  }

  /**
   * Takes a slot and a token for a message of {@code key} (null: no key) that is about to be
   * leased, or answers false (taking nothing) when a limit says it must wait.
   */
  boolean admit(String key) {
    if (room(1) == 0 || (key != null && (blocked.contains(key) || !mayRun(key)))) {
      if (key != null && !mayRun(key)) {
        blocked.add(key);
      }
      return false;
    }
    running++;
    if (limits.rate() != null) {
      take(FlowBuckets.QUEUE_KEY, limits.rate());
    }
    if (key != null) {
      runningByKey.merge(key, 1, Integer::sum);
      if (limits.ratePerKey() != null) {
        take(key, limits.ratePerKey());
      }
      if (!mayRun(key)) {
        blocked.add(key);
      }
    }
    return true;
  }

  /** Writes the buckets this lease spent from and deletes those it found full and not held. */
  void close(Connection c) throws SQLException {
    for (String key : spent) {
      FlowBuckets.spend(c, queue, key, tokens.get(key), now);
    }
    List<String> idle = new ArrayList<>();
    for (Map.Entry<String, FlowBuckets.Bucket> e : stored.entrySet()) {
      String key = e.getKey();
      Rate rate = key.equals(FlowBuckets.QUEUE_KEY) ? limits.rate() : limits.ratePerKey();
      boolean full = rate == null || tokens(key, rate) >= rate.leases();
      if (!spent.contains(key) && full && e.getValue().heldUntil() <= now.toEpochMilli()) {
        idle.add(key);
      }
    }
    if (!idle.isEmpty()) {
      FlowBuckets.delete(c, queue, idle);
    }
  }

  private boolean mayRun(String key) {
    FlowBuckets.Bucket b = stored.get(key);
    if (b != null && b.heldUntil() > now.toEpochMilli()) {
      return false;
    }
    Integer cap = limits.maxRunningPerKey();
    if (cap != null && runningByKey.getOrDefault(key, 0) >= cap) {
      return false;
    }
    return limits.ratePerKey() == null || tokens(key, limits.ratePerKey()) >= 1;
  }

  private void take(String key, Rate rate) {
    tokens.put(key, tokens(key, rate) - 1);
    spent.add(key);
  }

  /** The tokens of {@code key}'s bucket now: refilled by the time since it was written. */
  private double tokens(String key, Rate rate) {
    Double known = tokens.get(key);
    if (known != null) {
      return known;
    }
    FlowBuckets.Bucket b = stored.get(key);
    double t = rate.leases();
    if (b != null) {
      long elapsed = Math.max(0, now.toEpochMilli() - b.refilledAt());
      t =
          Math.min(
              rate.leases(),
              b.tokens() + elapsed * (double) rate.leases() / rate.period().toMillis());
    }
    tokens.put(key, t);
    return t;
  }
}
