package io.redrive.bench;

import io.redrive.bench.contender.DbosPeer;
import io.redrive.bench.contender.PostgresTarget;
import io.redrive.bench.contender.ServerUsage;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One system's rounds in a child JVM of {@link WorkflowPeers}, on the database it was given: one
 * warm-up round of each shape, then (when the server has {@code pg_stat_statements}) one round of a
 * single instance of each shape, whose counters are the fixed cost of a round (a fresh schema
 * migrated, the system started and stopped), then the measured rounds, each printed as a {@link
 * PeerRound} line on standard output. Every round runs on a fresh schema with the system started
 * for it and stopped after it, as {@link WorkflowBench} does; a round's counters are read before
 * the system starts and after it stopped, and what is printed per workflow is the round's count
 * less the one-instance round's, over the instances beyond that one.
 *
 * <p>Arguments: {@code system adminUrl databaseUrl database sequential fanOutInstances fanOut
 * rounds}, system one of {@code redrive}, {@code redrive-local} (its activities run in the turn:
 * local activities), {@code dbos}, {@code dbos-queue}; {@code fanOutInstances} 0 runs the 3-step
 * shape alone.
 */
public final class PeerRounds {
  /** A round's times: its seconds and its instances' start to end, p50 and p99 in ms. */
  private record Timed(double seconds, double p50Ms, double p99Ms) {}

  /** A round's times and what the server did for it (null without statistics). */
  private record Counted(Timed timed, ServerUsage.Reading reading) {}

  private final String system;
  private final String databaseUrl;
  private PostgresTarget redrive;
  private int schemas;

  private PeerRounds(String system, String databaseUrl) {
    this.system = system;
    this.databaseUrl = databaseUrl;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 8) {
      throw new IllegalArgumentException(
          "arguments: system adminUrl databaseUrl database sequential fanOutInstances fanOut"
              + " rounds");
    }
    PeerRounds peer = new PeerRounds(args[0], args[2]);
    int sequential = Integer.parseInt(args[4]);
    int fanOutInstances = Integer.parseInt(args[5]);
    int fanOut = Integer.parseInt(args[6]);
    int rounds = Integer.parseInt(args[7]);
    List<int[]> shapes = new ArrayList<>(List.of(new int[] {sequential, 0}));
    if (fanOutInstances
        > 0) { // 0 leaves the fan-out out (a DBOS queue of 8 runs ~8 parts a second)
      shapes.add(new int[] {fanOutInstances, fanOut});
    }
    try (ServerUsage usage = ServerUsage.open(args[1], args[3])) {
      for (int[] shape : shapes) {
        peer.timed(shape[0], shape[1]); // warm-up: class loading and JIT compilation
      }
      ServerUsage.Reading[] fixed = new ServerUsage.Reading[shapes.size()];
      if (usage != null) {
        for (int s = 0; s < shapes.size(); s++) {
          fixed[s] = peer.counted(usage, 1, shapes.get(s)[1]).reading;
        }
      }
      for (int round = 0; round < rounds; round++) {
        for (int s = 0; s < shapes.size(); s++) {
          int instances = shapes.get(s)[0];
          int width = shapes.get(s)[1];
          Counted c =
              usage == null
                  ? new Counted(peer.timed(instances, width), null)
                  : peer.counted(usage, instances, width);
          System.out.println(peer.round(instances, width, c, fixed[s]).line());
        }
      }
    }
    System.exit(0); // DBOS may leave non-daemon threads behind its close
  }

  private Counted counted(ServerUsage usage, int instances, int fanOut) {
    usage.reset();
    ServerUsage.Reading before = usage.read();
    Timed timed = timed(instances, fanOut);
    return new Counted(timed, usage.since(before)); // once the closed pool's backends reported
  }

  private PeerRound round(int instances, int fanOut, Counted c, ServerUsage.Reading fixed) {
    double statements = Double.NaN;
    double commits = Double.NaN;
    double wal = Double.NaN;
    if (c.reading != null && instances > 1) {
      ServerUsage.Reading extra = c.reading.minus(fixed);
      statements = extra.statements() / (double) (instances - 1);
      commits = extra.commits() / (double) (instances - 1);
      wal = extra.walBytes() / (double) (instances - 1);
    }
    return new PeerRound(
        system,
        fanOut == 0 ? "3 steps" : "fan-out " + fanOut,
        instances,
        c.timed.seconds,
        c.timed.p50Ms,
        c.timed.p99Ms,
        statements,
        commits,
        wal);
  }

  private Timed timed(int instances, int fanOut) {
    if (system.startsWith("redrive")) {
      if (redrive == null) {
        redrive = new PostgresTarget(databaseUrl);
      }
      WorkflowBench.Round r =
          WorkflowBench.run(redrive, instances, fanOut, system.equals("redrive-local"));
      return new Timed(r.seconds(), r.instanceP50Ms(), r.instanceP99Ms());
    }
    DbosPeer.Start start =
        switch (system) {
          case "dbos" -> DbosPeer.Start.DIRECT;
          case "dbos-queue" -> DbosPeer.Start.QUEUE;
          default -> throw new IllegalArgumentException("system: " + system);
        };
    String schema = "dbos_" + ++schemas;
    long[] latencies;
    double seconds;
    try (DbosPeer dbos = DbosPeer.launch(databaseUrl, schema, start)) {
      long started = System.nanoTime();
      latencies = dbos.await(dbos.start(instances, fanOut));
      seconds = (System.nanoTime() - started) / 1e9;
    }
    dropSchema(schema); // as a Redrive round's database is dropped after it
    Arrays.sort(latencies);
    return new Timed(
        seconds, WorkflowBench.percentile(latencies, 50), WorkflowBench.percentile(latencies, 99));
  }

  private void dropSchema(String schema) {
    try (Connection c = DriverManager.getConnection(databaseUrl);
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("DROP SCHEMA " + schema + " failed: " + e.getMessage(), e);
    }
  }
}
