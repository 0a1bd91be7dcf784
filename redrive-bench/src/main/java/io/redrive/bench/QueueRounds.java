package io.redrive.bench;

import io.redrive.bench.contender.PostgresTarget;
import io.redrive.bench.contender.ServerUsage;
import io.redrive.bench.scenario.QueueCell;
import io.redrive.bench.scenario.QueueCells;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One system's queue cells in a child JVM of {@link QueuePeers}, on the database it was given: per
 * cell a warm-up run of a tenth of the messages (at least 200; class loading and JIT compilation),
 * then the measured run, printed as a {@link PeerRound} line on standard output. Every run has a
 * fresh schema ({@link QueueCells}). When the server has {@code pg_stat_statements}, the counters
 * are read once the run's setup (schema, pool, a drain's backlog) is done and again after the
 * system stopped and closed its connections, and what is printed per message is their difference
 * over the messages: the system's start and stop are in it, its setup is not.
 *
 * <p>Arguments: {@code system adminUrl databaseUrl database cells messages producers}, system one
 * of {@code redrive}, {@code db-scheduler}, {@code raw}; cells as {@link QueueCell#parseAll} reads
 * them.
 */
public final class QueueRounds {
  private QueueRounds() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 7) {
      throw new IllegalArgumentException(
          "arguments: system adminUrl databaseUrl database cells messages producers");
    }
    String system = args[0];
    List<QueueCell> cells = QueueCell.parseAll(args[4]);
    int messages = Integer.parseInt(args[5]);
    int producers = Integer.parseInt(args[6]);
    PostgresTarget target = new PostgresTarget(args[2]);
    try (ServerUsage usage = ServerUsage.open(args[1], args[3])) {
      for (QueueCell cell : cells) {
        int warmUp = Math.max(200, messages / 10);
        QueueCells.run(system, target, cell, warmUp, producers, () -> {});
        AtomicReference<ServerUsage.Reading> before = new AtomicReference<>();
        Runnable atStart = usage == null ? () -> {} : () -> before.set(usage.begin());
        double rate = QueueCells.run(system, target, cell, messages, producers, atStart).value();
        double statements = Double.NaN;
        double commits = Double.NaN;
        double wal = Double.NaN;
        if (usage != null) {
          ServerUsage.Reading used = usage.since(before.get());
          statements = used.statements() / (double) messages;
          commits = used.commits() / (double) messages;
          wal = used.walBytes() / (double) messages;
        }
        PeerRound round =
            new PeerRound(
                system,
                cell.name(),
                messages,
                messages / rate,
                Double.NaN,
                Double.NaN,
                statements,
                commits,
                wal);
        System.out.println(round.line());
      }
    }
    System.exit(0); // a scheduler or pool may leave non-daemon threads behind its close
  }
}
