package io.redrive.jdbc;

import io.redrive.deadletter.DropResult;
import io.redrive.deadletter.RedriveRequest;
import io.redrive.deadletter.RedriveResult;
import io.redrive.deadletter.RetryResult;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.lease.SettleResult;
import io.redrive.message.HistoryEntry;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.store.DropParams;
import io.redrive.store.RedriveParams;
import io.redrive.store.RetryNowParams;
import io.redrive.store.RetryParams;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Operator actions: manual retry, redrive, drop, and the deadline sweep. */
final class Operating {
  private final SqlDialect dialect;
  private final QueueRows queues;
  private final MessageRows messages;
  private final HistoryRows history;
  private final DeadLettering deadLettering;
  private final StreamRepair streams;

  Operating(
      SqlDialect dialect,
      QueueRows queues,
      MessageRows messages,
      HistoryRows history,
      DeadLettering deadLettering) {
    this.dialect = dialect;
    this.queues = queues;
    this.messages = messages;
    this.history = history;
    this.deadLettering = deadLettering;
    this.streams = new StreamRepair(dialect);
  }

  RetryResult retry(Connection c, RetryParams p) throws SQLException {
    List<String> retried = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> notFound = new ArrayList<>();
    Map<String, String> queueOf = new HashMap<>();
    // Lock in id order so concurrent bulk actions cannot deadlock.
    for (String id : new TreeSet<>(p.ids())) {
      Optional<MessageRows.Locked> locked = messages.lock(c, id);
      if (locked.isEmpty()) {
        notFound.add(id);
        continue;
      }
      MessageRow row = locked.get().row();
      if (!row.dead()) {
        skipped.add(id);
        continue;
      }
      history.insert(
          c,
          id,
          action(
              row,
              Outcome.RETRIED,
              p.actor(),
              p.now(),
              "manual retry: attempts reset from "
                  + row.attempts()
                  + " to 0 (was dead: "
                  + row.deadReason()
                  + ")"));
      messages.makeReady(c, id, p.now().toEpochMilli(), 0, 0L);
      retried.add(id);
      queueOf.put(id, row.queue());
    }
    return new RetryResult(retried, skipped, notFound, queueOf);
  }

  /**
   * Makes SCHEDULED rows visible now, attempts kept; adds the queue of each one to {@code touched}
   * so the caller can wake waiting consumers after commit.
   */
  RetryResult retryNow(Connection c, RetryNowParams p, Set<String> touched) throws SQLException {
    List<String> retried = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> notFound = new ArrayList<>();
    Map<String, String> queueOf = new HashMap<>();
    long now = p.now().toEpochMilli();
    // Lock in id order so concurrent bulk actions cannot deadlock.
    for (String id : new TreeSet<>(p.ids())) {
      Optional<MessageRows.Locked> locked = messages.lock(c, id);
      if (locked.isEmpty()) {
        notFound.add(id);
        continue;
      }
      MessageRow row = locked.get().row();
      if (!"READY".equals(row.state()) || row.visibleAt() <= now) {
        skipped.add(id);
        continue;
      }
      history.insert(
          c,
          id,
          action(
              row,
              Outcome.RETRIED_NOW,
              p.actor(),
              p.now(),
              "retry now: visible at once instead of at "
                  + Instant.ofEpochMilli(row.visibleAt())
                  + ", attempts kept at "
                  + row.attempts()));
      messages.makeReady(c, id, now, row.attempts(), 0L);
      retried.add(id);
      queueOf.put(id, row.queue());
      touched.add(row.queue());
    }
    return new RetryResult(retried, skipped, notFound, queueOf);
  }

  RedriveResult redrive(Connection c, RedriveParams p) throws SQLException {
    RedriveRequest r = p.request();
    queues.require(c, r.from(), false);
    if (r.to() != null) {
      queues.require(c, r.to(), false);
    }
    StringBuilder sql =
        new StringBuilder(
            "SELECT "
                + MessageRow.COLUMNS
                + " FROM redrive_messages m WHERE m.queue = ? AND m.state = 'DEAD'");
    List<Object> args = new ArrayList<>();
    args.add(r.from());
    if (r.deadReasons() != null && !r.deadReasons().isEmpty()) {
      sql.append(" AND m.dead_reason IN (")
          .append(placeholders(r.deadReasons().size()))
          .append(')');
      for (FailureReason reason : r.deadReasons()) {
        args.add(reason.name());
      }
    }
    if (r.types() != null && !r.types().isEmpty()) {
      sql.append(" AND m.type IN (").append(placeholders(r.types().size())).append(')');
      args.addAll(r.types());
    }
    if (r.deadSince() != null) {
      sql.append(" AND m.dead_at >= ?");
      args.add(r.deadSince().toEpochMilli());
    }
    if (r.deadBefore() != null) {
      sql.append(" AND m.dead_at < ?");
      args.add(r.deadBefore().toEpochMilli());
    }
    if (r.fingerprint() != null) {
      sql.append(" AND m.dead_fingerprint = ?");
      args.add(r.fingerprint());
    }
    if (r.ids() != null) {
      if (r.ids().isEmpty()) {
        return new RedriveResult(List.of(), List.of(), r.dryRun());
      }
      sql.append(" AND m.id IN (").append(placeholders(r.ids().size())).append(')');
      args.addAll(r.ids());
    }
    sql.append(" ORDER BY m.seq LIMIT ? ").append(r.dryRun() ? "" : dialect.lockRows("m"));
    args.add(r.limit());
    List<MessageRow> rows = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      Inspecting.bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(MessageRow.map(rs));
        }
      }
    }
    Set<String> existingTargets = new HashSet<>();
    List<RedriveResult.Move> moves = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<StreamRepair.Redriven> back = new ArrayList<>();
    for (MessageRow row : rows) {
      String target = r.to() != null ? r.to() : row.sourceQueue();
      if (target == null || !targetExists(c, target, existingTargets)) {
        skipped.add(row.id()); // no known source queue: only an explicit "to" can move it
        continue;
      }
      back.add(new StreamRepair.Redriven(row.id(), row.stream(), target));
      if (r.dryRun()) {
        moves.add(new RedriveResult.Move(row.id(), target, null));
        continue;
      }
      history.insert(
          c,
          row.id(),
          action(
              row,
              Outcome.REDRIVEN,
              r.actor(),
              p.now(),
              "redriven from " + r.from() + " to " + target + ": attempts reset to 0"));
      try (PreparedStatement ps =
          c.prepareStatement(
              "UPDATE redrive_messages SET queue = ?, state = 'READY', attempts = 0,"
                  + " visible_at = ?, dead_reason = NULL, dead_at = NULL,"
                  + " dead_fingerprint = NULL, unique_key = NULL WHERE id = ?")) {
        ps.setString(1, target);
        ps.setLong(2, p.now().toEpochMilli());
        ps.setString(3, row.id());
        ps.executeUpdate();
      }
      moves.add(new RedriveResult.Move(row.id(), target, row.id()));
    }
    return new RedriveResult(
        moves, skipped, r.dryRun(), streams.apply(c, back, r.position(), r.dryRun()));
  }

  private boolean targetExists(Connection c, String queue, Set<String> known) throws SQLException {
    if (known.contains(queue)) {
      return true;
    }
    if (queues.find(c, queue, false).isPresent()) {
      known.add(queue);
      return true;
    }
    return false;
  }

  DropResult drop(Connection c, DropParams p) throws SQLException {
    List<String> dropped = new ArrayList<>();
    List<String> notFound = new ArrayList<>();
    if (p.ids() != null) {
      for (String id : new TreeSet<>(p.ids())) {
        if (messages.lock(c, id).isEmpty()) {
          notFound.add(id);
          continue;
        }
        history.delete(c, id);
        messages.delete(c, id);
        dropped.add(id);
      }
      return new DropResult(dropped, notFound);
    }
    if (queues.find(c, p.queue(), false).isEmpty()) {
      throw new QueueNotFoundException(p.queue());
    }
    Set<MessageState> states =
        p.states() == null || p.states().isEmpty()
            ? Set.of(MessageState.READY, MessageState.SCHEDULED, MessageState.DEAD)
            : p.states();
    StringBuilder sql =
        new StringBuilder("SELECT m.id FROM redrive_messages m WHERE m.queue = ? AND (");
    List<Object> args = new ArrayList<>();
    args.add(p.queue());
    List<String> ors = new ArrayList<>();
    for (MessageState s : states) {
      switch (s) {
        case READY -> {
          ors.add("(m.state = 'READY' AND m.visible_at <= ?)");
          args.add(p.now().toEpochMilli());
        }
        case SCHEDULED -> {
          ors.add("(m.state = 'READY' AND m.visible_at > ?)");
          args.add(p.now().toEpochMilli());
        }
        case DEAD -> ors.add("m.state = 'DEAD'");
        default -> ors.add("1 = 0");
      }
    }
    sql.append(String.join(" OR ", ors)).append(')');
    if (p.type() != null) {
      sql.append(" AND m.type = ?");
      args.add(p.type());
    }
    if (p.deadReason() != null) {
      sql.append(" AND m.state = 'DEAD' AND m.dead_reason = ?");
      args.add(p.deadReason().name());
    }
    if (p.fingerprint() != null) {
      sql.append(" AND m.state = 'DEAD' AND m.dead_fingerprint = ?");
      args.add(p.fingerprint());
    }
    sql.append(" ORDER BY m.seq LIMIT ? ").append(dialect.lockRows("m"));
    args.add(p.limit());
    try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
      Inspecting.bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          dropped.add(rs.getString(1));
        }
      }
    }
    for (String id : dropped) {
      history.delete(c, id);
      messages.delete(c, id);
    }
    return new DropResult(dropped, notFound);
  }

  /**
   * The deadline sweep: locks up to {@code limit} due rows, earliest deadline first, skipping rows
   * another transaction holds (another sweeper, a lease or a settle in progress: the next sweep
   * sees them again), and dead-letters each as EXPIRED by its queue's policy.
   */
  List<SettleResult> expireDue(Connection c, Instant now, int limit, Tally tally)
      throws SQLException {
    List<String> due = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.id FROM redrive_messages m WHERE m.expire_at IS NOT NULL"
                + " AND m.expire_at <= ? AND m.state IN ('READY', 'LEASED')"
                + " ORDER BY m.expire_at, m.id LIMIT ? "
                + dialect.lockRowsSkipLocked("m"))) {
      ps.setLong(1, now.toEpochMilli());
      ps.setInt(2, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          due.add(rs.getString(1));
        }
      }
    }
    List<SettleResult> out = new ArrayList<>(due.size());
    if (due.isEmpty()) {
      return out;
    }
    Map<String, MessageRows.Locked> locked = messages.lockAll(c, due);
    for (String id : due) {
      MessageRows.Locked l = locked.get(id);
      if (l == null || l.row().dead() || !MessageRows.pastDeadline(l.row(), now)) {
        continue;
      }
      Expiry.record(history, c, l.row(), l.policy(), now);
      tally.dead(l.row().queue());
      out.add(deadLettering.kill(c, l.row(), l.policy(), l.endings(), FailureReason.EXPIRED, now));
    }
    return out;
  }

  private static HistoryEntry action(
      MessageRow row, Outcome outcome, String actor, Instant now, String note) {
    return new HistoryEntry(row.attempts(), outcome, actor, null, now, null, note);
  }

  private static String placeholders(int n) {
    return String.join(", ", java.util.Collections.nCopies(n, "?"));
  }
}
