package io.redrive.jdbc;

import io.redrive.engine.Circuit;
import io.redrive.engine.CircuitRules;
import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.CircuitStatus;
import io.redrive.queue.Queue;
import io.redrive.store.CircuitParams;
import io.redrive.store.StatsParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** The circuits of a queue as {@link CircuitStatus}es, and an operator's open and close. */
final class CircuitViews {
  private CircuitViews() {}

  static List<CircuitStatus> list(Connection c, QueueRows queues, StatsParams p)
      throws SQLException {
    CircuitPolicy policy = queues.require(c, p.queue(), false).policy().circuit();
    List<CircuitStatus> out = new ArrayList<>();
    for (Circuits.Stored s : Circuits.load(c, p.queue()).values()) {
      Circuit now =
          policy == null ? s.circuit() : CircuitRules.advance(policy, s.circuit(), p.now());
      out.add(status(c, p.queue(), new Circuits.Stored(s.dependency(), now, s.types())));
    }
    return out;
  }

  static CircuitStatus set(Connection c, QueueRows queues, CircuitParams p) throws SQLException {
    Queue q = queues.require(c, p.queue(), true);
    if (q.policy().circuit() == null) {
      throw new IllegalArgumentException(
          "queue: \"" + p.queue() + "\" has no circuit breaker (set its circuit settings first)");
    }
    Map<String, Circuits.Stored> all = Circuits.load(c, p.queue());
    Circuits.Stored before =
        all.getOrDefault(
            p.dependency(), new Circuits.Stored(p.dependency(), Circuit.closed(), new TreeSet<>()));
    Circuit after =
        p.open()
            ? CircuitRules.openByHand(p.now())
            : CircuitRules.closeByHand(before.circuit(), p.now());
    Circuits.Stored stored = new Circuits.Stored(p.dependency(), after, before.types());
    all.put(p.dependency(), stored);
    Circuits.save(c, p.queue(), stored);
    Circuits.changed(c, p.queue(), p.dependency(), after);
    boolean holding = all.values().stream().anyMatch(s -> s.circuit().holding());
    Circuits.route(c, p.queue(), holding, q.policy().limits());
    return status(c, p.queue(), stored);
  }

  /** The queue's messages not yet leased that need the circuit {@code s}. */
  private static long held(Connection c, String queue, Circuits.Stored s) throws SQLException {
    List<String> types = List.copyOf(s.types());
    StringBuilder sql =
        new StringBuilder(
            "SELECT COUNT(*) FROM redrive_messages WHERE queue = ? AND state = 'READY'"
                + " AND (dependency = ?");
    for (int i = 0; i < types.size(); i++) {
      sql.append(" OR type = ?");
    }
    sql.append(")");
    try (java.sql.PreparedStatement ps = c.prepareStatement(sql.toString())) {
      ps.setString(1, queue);
      ps.setString(2, s.dependency());
      for (int i = 0; i < types.size(); i++) {
        ps.setString(3 + i, types.get(i));
      }
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static CircuitStatus status(Connection c, String queue, Circuits.Stored s)
      throws SQLException {
    Circuit k = s.circuit();
    List<CircuitStatus.Change> history = new ArrayList<>();
    for (Circuits.Change change : Circuits.changes(c, queue, s.dependency())) {
      history.add(new CircuitStatus.Change(change.at(), change.state(), change.by()));
    }
    return new CircuitStatus(
        s.dependency(),
        k.state(),
        k.failures(),
        k.openedAt(),
        k.nextProbeAt(),
        k.state() == io.redrive.queue.CircuitState.HALF_OPEN ? k.wave() + 1 : 0,
        List.copyOf(s.types()),
        k.holding() ? held(c, queue, s) : 0,
        k.changedAt(),
        k.changedBy(),
        history);
  }
}
