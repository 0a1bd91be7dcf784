package io.redrive.bench;

/**
 * Redrive's workflows against DBOS Transact's on one PostgreSQL server (docs/benchmarks.md,
 * "Workflows against DBOS Transact"): the shapes of {@link WorkflowBench} (three steps one after
 * another; a fan-out of N then waiting for all), each system in its own child JVM ({@link
 * PeerRounds}, same java and class path) on a fresh database per system and repetition, the systems
 * alternating (their order reversed every other repetition). The server is the one {@code
 * REDRIVE_PG_URL} names, or the benchmark's embedded one. Prints one markdown table: instances per
 * second (the median of the repetitions' means, and their range), Redrive over the system (the
 * median of the repetitions' ratios), start-to-end latency per instance (medians of the rounds' p50
 * and p99) and, when the server has {@code pg_stat_statements}, statements, commits and WAL bytes
 * per workflow (medians of the repetitions' means), else "n/a".
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.WorkflowPeers
 * [repetitions] [systems] [sequential] [fanOutInstances] [fanOut] [rounds]}, defaults {@code 3
 * redrive,dbos,dbos-queue 300 20 100 3}; {@code fanOutInstances} 0 runs the 3-step shape alone;
 * system {@code redrive-local} runs Redrive's activities as local activities.
 */
public final class WorkflowPeers {
  private WorkflowPeers() {}

  public static void main(String[] args) throws Exception {
    PeerChildren.Rounds rounds =
        PeerChildren.run(
            PeerRounds.class, args, "3", "redrive,dbos,dbos-queue", "300", "20", "100", "3");
    System.out.println(PeerTable.markdown(rounds.systems(), rounds.byRepetition()));
  }
}
