package io.redrive.bench.scenario;

import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.StatementStats;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a run's time goes on PostgreSQL: statements and commits per message in the cell's details,
 * and the top statements printed to the console (for the report's "where the time goes" notes).
 */
final class StatementReport {
  private static final int TOP = 6;

  private StatementReport() {}

  /**
   * {@code m} with the statement figures of the run just ended added, when the database has any.
   */
  static Measurement withStatements(Measurement m, BenchDatabase db, String label, long messages) {
    StatementStats stats = db.statements();
    if (stats == null || messages == 0) {
      return m;
    }
    print(label, stats, messages);
    Map<String, Object> details = new LinkedHashMap<>(m.details());
    details.putAll(stats.perMessage(messages));
    return new Measurement(m.value(), details, m.checks());
  }

  private static String shortened(String query) {
    String one = query.replaceAll("\\s+", " ");
    return one.length() <= 160 ? one : one.substring(0, 160) + "…";
  }

  private static void print(String label, StatementStats stats, long messages) {
    System.out.printf(
        "[statements] %s: %.3f statements and %.3f transactions per message; top statements:%n",
        label, stats.calls() / (double) messages, stats.transactions() / (double) messages);
    stats.statements().stream()
        .limit(TOP)
        .forEach(
            s ->
                System.out.printf(
                    "    %6.3f calls/msg %8.1f µs/msg  %s%n",
                    s.calls() / (double) messages,
                    s.totalMillis() * 1000 / messages,
                    shortened(s.query())));
  }
}
