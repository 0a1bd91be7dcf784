package io.redrive.jdbc;

import io.redrive.engine.DeliveryRules;
import io.redrive.engine.DeliveryRules.LeaseVerdict;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.queue.Queue;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.LeaseParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lease algorithm, run in one write transaction ({@link #lease}); where the dialect runs single
 * statements committed alone, a first round runs that way ({@link #leaseAlone}) and the transaction
 * only when that round met rows it could not take.
 *
 * <p>Implementation notes. Candidates are READY or LEASED rows whose {@code visible_at} has passed
 * (for a LEASED row that is its lease expiry, so an expired lease is simply leasable again), in
 * serve order {@code (visible_at - head_start, seq)} (the head start is the message's priority ×
 * its queue's aging, fixed at enqueue), filtered by the stream head rule of the queue's stream
 * policy, and of the types the caller asked for when it asked (a message of another type is never a
 * candidate, so nothing here touches it). Each candidate is then judged by {@link
 * DeliveryRules#onLease}: past its deadline it dies as EXPIRED, past its attempts it dies as
 * POISON, otherwise its attempts are incremented and it is leased. Rows leased by this call carry
 * the caller's {@code lease_batch} id so that later messages of the same stream may join the batch
 * in order, and so that the caller can give them back ({@link UndeliveredLeases}) when the answer
 * is lost; the query repeats while a round could have unblocked more messages.
 *
 * <p>This class runs the rounds and judges each row; {@link LeaseCandidates} selects the rows (or
 * {@link LeaseClaims} claims them in one statement), {@link LeaseDeaths} writes what a round does
 * not deliver and {@link LeaseWrites} writes the leases. Entered from {@link JdbcStore#leaseReady},
 * on the connection of the transaction (or single statement) it runs in.
 */
final class Leasing {
  private final QueueRows queues;
  private final QueueKinds kinds;
  private final LeaseCandidates candidates;
  private final LeaseWrites writes;
  private final LeaseDeaths deaths;

  /** The one-statement rounds, where the database can run them (null: select, then update). */
  private final LeaseClaims claims;

  /**
   * Queues whose last claim found them limited (flow limits or a hold): their leases skip the
   * one-statement claim, which would lease nothing, and read the queue row instead. Only a hint:
   * that read sends a queue no longer limited back to the claim and drops it from here.
   */
  private final Set<String> limitedQueues = ConcurrentHashMap.newKeySet();

  private final SqlDialect dialect;

  Leasing(
      SqlDialect dialect,
      QueueRows queues,
      HistoryRows history,
      DeadLettering deadLettering,
      QueueKinds kinds) {
    this.queues = queues;
    this.kinds = kinds;
    this.dialect = dialect;
    this.candidates = new LeaseCandidates(dialect);
    this.writes = new LeaseWrites(dialect);
    this.deaths = new LeaseDeaths(history, deadLettering);
    this.claims = dialect.singleStatementWrites() ? new LeaseClaims(dialect) : null;
  }

  /** Counts in {@code tally} the leases found expired (failed) and the messages killed (dead). */
  LeaseResult lease(Connection c, LeaseParams params, Tally tally) throws SQLException {
    List<LeasedMessage> leased = new ArrayList<>();
    List<String> poisoned = new ArrayList<>();
    List<String> expired = new ArrayList<>();
    List<String> discarded = new ArrayList<>();
    List<String> crashPoisoned = new ArrayList<>();
    String batch = params.batch();
    Instant now = params.now();
    Queue queue = null;
    // Set when the queue has flow limits (or a slow-down hold): the limited path (FlowGate).
    FlowGate gate = null;
    // Set with the gate when the queue has a circuit breaker: its circuits (CircuitGate).
    CircuitGate circuits = null;
    if (claims == null || limitedQueues.contains(params.queue())) {
      QueueRows.Leasable q = queues.requireLeasable(c, params.queue(), now);
      queue = q.queue();
      gate = q.limited() && !queue.paused() ? openGate(c, queue, now) : null;
      circuits = gate == null ? null : openCircuits(c, queue, now);
      if (!q.limited()) {
        limitedQueues.remove(params.queue());
      }
    }
    while (queue == null || !queue.paused()) {
      int want = params.max() - leased.size();
      if (gate != null) {
        want = gate.room(want);
      }
      if (want <= 0) {
        break;
      }
      List<MessageRow> rows;
      Map<Long, LeaseClaims.Lease> claimed = null;
      if (claims != null && gate == null) {
        LeaseClaims.Round round =
            claims.claim(
                c,
                params.queue(),
                params.worker(),
                batch,
                params.leaseTimeout(),
                now,
                want,
                false,
                params.types());
        queue = round.queue();
        if (round.limited()) {
          limitedQueues.add(params.queue());
          gate = queue.paused() ? null : openGate(c, queue, now);
          circuits = gate == null ? null : openCircuits(c, queue, now);
          continue; // the statement leased nothing: lease again on the limited path
        }
        rows = round.rows();
        claimed = round.leases();
      } else {
        rows =
            candidates.read(
                c,
                queue.policy().streamPolicy(),
                params.queue(),
                batch,
                now,
                want,
                params.types(),
                gate == null ? Set.of() : Set.copyOf(gate.blockedKeys()),
                circuits == null ? Set.of() : circuits.blockedDependencies(),
                circuits == null ? Set.of() : circuits.blockedTypes());
      }
      if (rows.isEmpty()) {
        break;
      }
      int read = rows.size();
      if (gate != null) {
        rows =
            admitted(
                gate,
                circuits,
                circuits == null ? null : circuits.dependencies(c, rows),
                rows,
                queue.policy(),
                now);
      }
      QueuePolicy policy = queue.policy();
      QueueEndings endings = kinds.endings(queue);
      boolean mayUnblock = false;
      List<MessageRow> deliver = new ArrayList<>();
      for (MessageRow row : rows) {
        List<String> crashed = List.of();
        if (row.leased()) {
          crashed = deaths.recordLeaseExpired(c, row, policy, params.node());
          tally.failed(row.queue());
        }
        LeaseVerdict verdict =
            DeliveryRules.onLease(row.attempts(), policy.maxAttempts(), expireAt(row), now);
        boolean crashLoop =
            verdict != LeaseVerdict.EXPIRE
                && DeliveryRules.isCrashLoop(crashed, policy.maxCrashes());
        if (claimed != null) {
          agree(row, claimed.containsKey(row.seq()), verdict, policy);
        }
        if (crashLoop) {
          if (deaths.crashPoison(c, row, policy, crashed, endings, now).discarded()) {
            discarded.add(row.id());
          }
          poisoned.add(row.id());
          crashPoisoned.add(row.id());
          mayUnblock = true;
          continue;
        }
        switch (verdict) {
          case EXPIRE -> {
            if (deaths.expire(c, row, policy, endings, now).discarded()) {
              discarded.add(row.id());
            }
            expired.add(row.id());
            mayUnblock = true;
          }
          case POISON -> {
            if (deaths.poison(c, row, policy, endings, now).discarded()) {
              discarded.add(row.id());
            }
            poisoned.add(row.id());
            mayUnblock = true;
          }
          case DELIVER -> {
            deliver.add(row);
            mayUnblock |= row.stream() != null;
          }
        }
      }
      Duration timeout =
          params.leaseTimeout() != null ? params.leaseTimeout() : policy.leaseTimeout();
      if (claimed != null) {
        // The statement leaves an expired lease to us when the queue counts crashes.
        List<MessageRow> unclaimed = new ArrayList<>();
        for (MessageRow row : deliver) {
          if (!claimed.containsKey(row.seq())) {
            unclaimed.add(row);
          }
        }
        Map<String, LeasedMessage> taken = new java.util.HashMap<>();
        for (LeasedMessage m :
            writes.take(c, unclaimed, params.worker(), batch, timeout, policy, now, gate != null)) {
          taken.put(m.id(), m);
        }
        for (MessageRow row : deliver) {
          LeaseClaims.Lease lease = claimed.get(row.seq());
          leased.add(
              lease != null ? LeaseWrites.delivery(row, lease, policy) : taken.get(row.id()));
        }
      } else {
        leased.addAll(
            writes.take(c, deliver, params.worker(), batch, timeout, policy, now, gate != null));
      }
      if (!mayUnblock && read < want) {
        break;
      }
    }
    if (gate != null) {
      gate.close(c);
    }
    if (circuits != null) {
      circuits.close(c, queue.policy().limits());
    }
    tally.add(params.queue(), Tally.DEAD, poisoned.size() + expired.size());
    return new LeaseResult(leased, poisoned, expired, discarded, crashPoisoned);
  }

  /**
   * The first round of a lease as one statement committed on its own, where the dialect can (see
   * {@link SqlDialect#singleStatementWrites}). It leases only candidates that were READY and may be
   * delivered; when it saw others (a lease that ran out, a message to kill) or may have unblocked
   * more of a stream, the rest of the lease is left to {@link #lease} in a transaction.
   *
   * @param result what this round leased
   * @param finished false when the rest of the lease still has to run
   */
  record FirstRound(LeaseResult result, boolean finished) {}

  boolean leasesAlone() {
    return claims != null;
  }

  FirstRound leaseAlone(Connection c, LeaseParams params) throws SQLException {
    if (limitedQueues.contains(params.queue())) {
      return new FirstRound(new LeaseResult(List.of(), List.of(), List.of(), List.of()), false);
    }
    Instant now = params.now();
    LeaseClaims.Round round =
        claims.claim(
            c,
            params.queue(),
            params.worker(),
            params.batch(),
            params.leaseTimeout(),
            now,
            params.max(),
            true,
            params.types());
    if (round.limited()) {
      limitedQueues.add(params.queue());
      return new FirstRound(new LeaseResult(List.of(), List.of(), List.of(), List.of()), false);
    }
    QueuePolicy policy = round.queue().policy();
    List<LeasedMessage> leased = new ArrayList<>(round.leases().size());
    boolean more = false;
    for (MessageRow row : round.rows()) {
      LeaseClaims.Lease lease = round.leases().get(row.seq());
      if (lease == null) {
        more = true;
        continue;
      }
      agree(
          row,
          true,
          DeliveryRules.onLease(row.attempts(), policy.maxAttempts(), expireAt(row), now));
      more |= row.stream() != null;
      leased.add(LeaseWrites.delivery(row, lease, policy));
    }
    boolean finished =
        leased.size() == params.max() || (!more && round.rows().size() < params.max());
    return new FirstRound(new LeaseResult(leased, List.of(), List.of(), List.of()), finished);
  }

  /** The queue's circuits, read under the lock the gate took (null: no circuit breaker). */
  private CircuitGate openCircuits(Connection c, Queue queue, Instant now) throws SQLException {
    return queue.policy().circuit() == null
        ? null
        : CircuitGate.open(c, dialect, queue.name(), queue.policy().circuit(), now);
  }

  /** Locks the queue row and reads its flow limits' state (see {@link FlowGate}). */
  private FlowGate openGate(Connection c, Queue queue, Instant now) throws SQLException {
    return FlowGate.open(c, queue.name(), queue.policy().limits(), dialect.lockRows("q"), now);
  }

  /**
   * The rows of a round the flow limits let through: a row the delivery rules will kill (expired,
   * poisoned) takes no slot; one to deliver takes a slot and a token of its key and of the queue,
   * or waits (untouched, no attempt used) when a limit says so.
   */
  private static List<MessageRow> admitted(
      FlowGate gate,
      CircuitGate circuits,
      Map<String, String> dependencies,
      List<MessageRow> rows,
      QueuePolicy policy,
      Instant now) {
    List<MessageRow> out = new ArrayList<>(rows.size());
    for (MessageRow row : rows) {
      LeaseVerdict verdict =
          DeliveryRules.onLease(row.attempts(), policy.maxAttempts(), expireAt(row), now);
      if (verdict == LeaseVerdict.DELIVER
          && circuits != null
          && !circuits.admit(dependencies.get(row.id()), row.type())) {
        continue; // held by a circuit: not leased, no attempt used
      }
      if (verdict != LeaseVerdict.DELIVER || gate.admit(row.limitKey())) {
        out.add(row);
      }
    }
    return out;
  }

  /**
   * The lease statement decides in SQL what {@link DeliveryRules#onLease} decides here; a row it
   * leased ({@code leased}) must be one the rules deliver, and (in a transaction, where it may
   * lease every kind) the other way round, except a lease that ran out in a queue that counts
   * crashes: the crash-loop breaker reads the message's history, so the statement leaves those rows
   * to {@link #lease}.
   */
  private static void agree(
      MessageRow row, boolean leased, LeaseVerdict verdict, QueuePolicy policy) {
    boolean leftToUs = row.leased() && policy.maxCrashes() > 0;
    if (leased != (verdict == LeaseVerdict.DELIVER && !leftToUs)) {
      throw new IllegalStateException(
          "lease statement and delivery rules disagree on message " + row.id());
    }
  }

  private static void agree(MessageRow row, boolean leased, LeaseVerdict verdict) {
    if (leased != (verdict == LeaseVerdict.DELIVER)) {
      throw new IllegalStateException(
          "lease statement and delivery rules disagree on message " + row.id());
    }
  }

  private static Instant expireAt(MessageRow row) {
    return row.expireAt() == null ? null : Instant.ofEpochMilli(row.expireAt());
  }
}
