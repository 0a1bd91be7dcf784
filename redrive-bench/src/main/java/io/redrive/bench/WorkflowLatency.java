package io.redrive.bench;

import io.redrive.Redrive;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Target;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.Arrays;

/**
 * The start-to-end latency of one 3-step workflow on an otherwise idle system (docs/benchmarks.md,
 * "Workflows, round two"): one runtime, warmed up, runs the workflows of {@link WorkflowBench} one
 * at a time, each started when the last completed, so nothing queues; the time is the stored
 * created and completed times of each instance. Prints p50, p90 and p99 in milliseconds.
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.WorkflowLatency
 * [store] [count] [queued|local]}, defaults {@code postgres 200 queued}; the store as for {@link
 * WorkflowBench} ({@code REDRIVE_PG_URL} names a PostgreSQL server, else the embedded one).
 */
public final class WorkflowLatency {
  private static final int WARM_UP = 50;

  private WorkflowLatency() {}

  public static void main(String[] args) {
    String store = args.length > 0 ? args[0] : "postgres";
    int count = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    boolean local = args.length > 2 && args[2].equals("local");
    try (Target target = CallPathTiming.target(store);
        BenchDatabase db = target.newDatabase();
        Redrive redrive = Redrive.builder(db.openStore(8)).build();
        WorkflowRuntime runtime =
            WorkflowRuntime.builder(redrive, WorkflowBench.registry(local))
                .nodeId("bench")
                .pollInterval(Duration.ofMillis(100))
                .build()
                .start()) {
      WorkflowClient client = runtime.client();
      oneAtATime(client, WARM_UP);
      long[] latencies = oneAtATime(client, count);
      Arrays.sort(latencies);
      System.out.printf(
          "| %s | 3 activities%s, one at a time | %d | p50 %.0f ms | p90 %.0f ms | p99 %.0f ms |%n",
          target.name(),
          local ? " (local)" : "",
          count,
          WorkflowBench.percentile(latencies, 50),
          WorkflowBench.percentile(latencies, 90),
          WorkflowBench.percentile(latencies, 99));
    }
  }

  private static long[] oneAtATime(WorkflowClient client, int count) {
    long[] latencies = new long[count];
    for (int i = 0; i < count; i++) {
      String id = client.start(StartRequest.of("sequential", i)).instanceId();
      InstanceInfo done = client.await(id, Duration.ofMinutes(1));
      if (done.status() != InstanceStatus.COMPLETED) {
        throw new IllegalStateException("instance " + id + " did not complete");
      }
      latencies[i] = Duration.between(done.createdAt(), done.completedAt()).toMillis();
    }
    return latencies;
  }
}
