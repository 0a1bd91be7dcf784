package io.redrive.bench.contender;

import java.util.List;
import java.util.Map;

/**
 * What the database ran during one run, read from PostgreSQL's {@code pg_stat_statements}: the
 * evidence of where a run's time goes (how many statements and commits each message costs, which
 * statements dominate). Empty where the database cannot tell (SQLite, a server without the
 * extension loaded).
 *
 * @param statements statements other than transaction control, with their calls and time
 * @param transactions explicit transactions (the driver's BEGINs; a side running in autocommit, as
 *     the baseline does, has none: each of its statements commits alone)
 */
public record StatementStats(List<Statement> statements, long transactions) {

  /** One normalized statement: how often it ran and its total execution time. */
  public record Statement(String query, long calls, double totalMillis) {}

  /** Calls of all statements. */
  public long calls() {
    return statements.stream().mapToLong(Statement::calls).sum();
  }

  /** Statements and their execution time per message of a run of {@code messages}. */
  public Map<String, Object> perMessage(long messages) {
    return Map.of(
        "transactions/msg",
        Math.round(transactions * 1000.0 / messages) / 1000.0,
        "statements/msg",
        Math.round(calls() * 1000.0 / messages) / 1000.0,
        "statement µs/msg",
        Math.round(statements.stream().mapToDouble(Statement::totalMillis).sum() * 1e4 / messages)
            / 10.0);
  }
}
