package io.redrive.jdbc;

import io.redrive.engine.Circuit;
import io.redrive.engine.CircuitRules;
import io.redrive.lease.SettleCommand;
import io.redrive.queue.CircuitPolicy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The failures a settle counts toward circuits ({@link CircuitRules#onFailure}): those naming a
 * dependency, of a queue with a circuit breaker and not workflow-owned. Decided before the settle
 * writes anything, queue by queue in name order under each queue row's lock (as slow-down holds
 * take them), so concurrent failures from every node agree on one count. A failure of a queue
 * without a circuit breaker, or naming no dependency, costs nothing here.
 */
final class CircuitFailures {
  private final String lock;

  /**
   * @param lock the dialect's exclusive row lock clause of alias {@code q} ("" on SQLite)
   */
  CircuitFailures(String lock) {
    this.lock = lock;
  }

  /**
   * What a counted failure did.
   *
   * @param dependency the dependency it named
   * @param failure the rules' decision
   * @param holdUntil when a refunded message comes back (refunds only)
   */
  record Counted(String dependency, CircuitRules.Failure failure, Instant holdUntil) {}

  /** Decides the failures at {@code at} of {@code commands} that count; by command index. */
  Map<Integer, Counted> decide(
      Connection c,
      List<SettleCommand> commands,
      List<Integer> at,
      Map<String, MessageRows.Locked> locked,
      Instant now)
      throws SQLException {
    Map<Integer, Counted> out = new HashMap<>();
    Map<Integer, String> dependencies = new HashMap<>();
    for (int i : at) {
      String d = dependency(commands.get(i), locked.get(commands.get(i).messageId()), now);
      if (d != null) {
        dependencies.put(i, d);
      }
    }
    List<Integer> counted =
        at.stream()
            .filter(dependencies::containsKey)
            .sorted(
                Comparator.comparing(i -> locked.get(commands.get(i).messageId()).row().queue()))
            .toList();
    String lockedQueue = null;
    Map<String, Circuits.Stored> circuits = null;
    for (int i : counted) {
      SettleCommand.Fail f = (SettleCommand.Fail) commands.get(i);
      String dependency = dependencies.get(i);
      MessageRows.Locked l = locked.get(f.messageId());
      MessageRow row = l.row();
      if (!row.queue().equals(lockedQueue)) {
        lockQueue(c, row.queue());
        lockedQueue = row.queue();
        circuits = Circuits.load(c, row.queue());
      }
      CircuitPolicy policy = l.policy().circuit();
      Circuits.Stored stored =
          circuits.getOrDefault(
              dependency, new Circuits.Stored(dependency, Circuit.closed(), new TreeSet<>()));
      CircuitRules.Failure decided = CircuitRules.onFailure(policy, stored.circuit(), now);
      TreeSet<String> types = new TreeSet<>(stored.types());
      types.add(row.type());
      Circuits.Stored after = new Circuits.Stored(dependency, decided.circuit(), types);
      circuits.put(dependency, after);
      Circuits.save(c, row.queue(), after);
      if (decided.changed()) {
        Circuits.changed(c, row.queue(), dependency, decided.circuit());
        Circuits.route(c, row.queue(), true, l.policy().limits());
      }
      setDependency(c, row.id(), dependency);
      Instant holdUntil =
          decided.refund()
              ? CircuitRules.holdUntil(policy, decided.circuit(), now, ThreadLocalRandom.current())
              : null;
      out.put(i, new Counted(dependency, decided, holdUntil));
    }
    return out;
  }

  /**
   * The dependency a command's failure counts against, or null when it counts toward no circuit:
   * the one it names, or, on a queue whose circuit breaker learns, the one its text names.
   */
  private static String dependency(SettleCommand command, MessageRows.Locked l, Instant now) {
    if (!(command instanceof SettleCommand.Fail f)
        || l == null
        || l.policy().circuit() == null
        || l.endings().handlerResultEnds()
        || !MessageRows.holds(l.row(), f.token(), now)) {
      return null;
    }
    if (f.dependency() != null) {
      return f.dependency();
    }
    return l.policy().circuit().learn()
        ? io.redrive.failure.Dependencies.learn(f.message(), f.stackTrace())
        : null;
  }

  private void lockQueue(Connection c, String queue) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT q.name FROM redrive_queues q WHERE q.name = ? " + lock)) {
      ps.setString(1, queue);
      ps.executeQuery().close();
    }
  }

  private static void setDependency(Connection c, String id, String dependency)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("UPDATE redrive_messages SET dependency = ? WHERE id = ?")) {
      ps.setString(1, dependency);
      ps.setString(2, id);
      ps.executeUpdate();
    }
  }
}
