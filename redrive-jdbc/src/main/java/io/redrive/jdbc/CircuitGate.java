package io.redrive.jdbc;

import io.redrive.engine.Circuit;
import io.redrive.engine.CircuitRules;
import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.FlowLimits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The circuits of one limited lease of a queue with a circuit breaker, read under the queue row's
 * lock that {@link FlowGate#open} took: which dependencies and types are held back now ({@link
 * #blockedDependencies}, {@link #blockedTypes}: left out by the candidate statement), whether a
 * message that needs a probing or half-open circuit may go ({@link #admit}), and, at the end, the
 * circuits written back ({@link #close}). Only a queue whose circuit holds leases on this path
 * ({@code flow_until}), so a queue whose circuits are all closed pays nothing. One per lease
 * transaction; not thread-safe.
 */
final class CircuitGate {
  private final SqlDialect dialect;
  private final String queue;
  private final CircuitPolicy policy;
  private final Instant now;
  private final Map<String, Circuits.Stored> circuits;
  private final Map<String, Circuit> loaded = new HashMap<>();

  private CircuitGate(
      SqlDialect dialect,
      String queue,
      CircuitPolicy policy,
      Instant now,
      Map<String, Circuits.Stored> circuits) {
    this.dialect = dialect;
    this.queue = queue;
    this.policy = policy;
    this.now = now;
    this.circuits = circuits;
    for (Circuits.Stored s : circuits.values()) {
      loaded.put(s.dependency(), s.circuit());
      put(s, CircuitRules.advance(policy, s.circuit(), now));
    }
  }

  /** Reads the circuits of {@code queue}; its row must be locked already. */
  static CircuitGate open(
      Connection c, SqlDialect dialect, String queue, CircuitPolicy policy, Instant now)
      throws SQLException {
    return new CircuitGate(dialect, queue, policy, now, Circuits.load(c, queue));
  }

  /** Dependencies none of whose messages may be leased now. */
  Set<String> blockedDependencies() {
    Set<String> out = new HashSet<>();
    for (Circuits.Stored s : circuits.values()) {
      if (blocked(s)) {
        out.add(s.dependency());
      }
    }
    return out;
  }

  /** Message types none of whose messages may be leased now (they failed against a held one). */
  Set<String> blockedTypes() {
    Set<String> out = new HashSet<>();
    for (Circuits.Stored s : circuits.values()) {
      if (blocked(s)) {
        out.addAll(s.types());
      }
    }
    return out;
  }

  /** True when some circuit holds but may let a message through now (a probe, a wave's room). */
  boolean admitting() {
    return circuits.values().stream().anyMatch(s -> s.circuit().holding() && !blocked(s));
  }

  /** The stored dependency of each of {@code rows}, by message id (null: none). */
  Map<String, String> dependencies(Connection c, List<MessageRow> rows) throws SQLException {
    Map<String, String> out = new HashMap<>();
    if (rows.isEmpty() || !admitting()) {
      return out;
    }
    List<String> ids = rows.stream().map(MessageRow::id).toList();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, dependency FROM redrive_messages WHERE id " + dialect.in(ids.size()))) {
      dialect.bindIn(ps, 1, ids);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return out;
  }

  /**
   * Whether a message of {@code type} whose last failure named {@code dependency} may be leased
   * now, taking its place in every holding circuit it needs (the canary's, a wave's).
   */
  boolean admit(String dependency, String type) {
    for (Circuits.Stored s : List.copyOf(circuits.values())) {
      if (!s.circuit().holding() || !s.needs(dependency, type)) {
        continue;
      }
      CircuitRules.Admission a = CircuitRules.admit(policy, s.circuit(), now);
      if (!a.admit()) {
        return false;
      }
      put(s, a.circuit());
    }
    return true;
  }

  /**
   * Writes the circuits this lease changed (with a history entry for each change of state), and
   * sends the queue's leases back to the one-statement path when no circuit holds any more.
   */
  void close(Connection c, FlowLimits limits) throws SQLException {
    boolean holding = false;
    for (Circuits.Stored s : circuits.values()) {
      holding |= s.circuit().holding();
      Circuit before = loaded.get(s.dependency());
      if (!s.circuit().equals(before)) {
        Circuits.save(c, queue, s);
        if (s.circuit().state() != before.state()) {
          Circuits.changed(c, queue, s.dependency(), s.circuit());
        }
      }
    }
    if (!holding && loaded.values().stream().anyMatch(Circuit::holding)) {
      Circuits.route(c, queue, false, limits);
    }
  }

  private boolean blocked(Circuits.Stored s) {
    return s.circuit().holding() && !CircuitRules.admit(policy, s.circuit(), now).admit();
  }

  private void put(Circuits.Stored s, Circuit circuit) {
    circuits.put(s.dependency(), new Circuits.Stored(s.dependency(), circuit, s.types()));
  }
}
