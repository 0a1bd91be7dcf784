package io.redrive.bench;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Target;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.Task;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Workflow throughput and turn latency (docs/benchmarks.md, "Workflows"): instances of a 3-activity
 * orchestration (three activities one after another) and of a fan-out (N activities at once, then
 * {@code allOf}) are started in a burst on a fresh database and run by one runtime in the same JVM
 * (4 turns and 8 activities at once); the figure is instances completed per second from the first
 * start to the last completion, with the runtime's turn duration (lease to commit) at p50 and p99.
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.WorkflowBench
 * [stores] [sequentialInstances] [fanOutInstances] [fanOut] [rounds] [queued|local]}, e.g. {@code
 * sqlite,postgres 300 20 100 3} (the full form) or {@code sqlite 20 2 10 1} (smoke). With {@code
 * local} the activity declares a 5 s timeout, so the runtime runs it in the turn
 * (docs/workflows.md, "Local and queued activities"); the default keeps it queued.
 */
public final class WorkflowBench {
  /**
   * One measured round.
   *
   * @param store sqlite or postgres
   * @param shape {@code 3 activities} or {@code fan-out N}
   * @param instances instances started and completed
   * @param seconds from the first start to the last completion
   * @param turns turns committed or abandoned
   * @param turnP50Ms turn duration, median, in milliseconds
   * @param turnP99Ms turn duration, 99th percentile, in milliseconds
   * @param instanceP50Ms an instance's start to end (its stored created and completed times),
   *     median, in milliseconds
   * @param instanceP99Ms the same, 99th percentile
   */
  public record Round(
      String store,
      String shape,
      int instances,
      double seconds,
      long turns,
      double turnP50Ms,
      double turnP99Ms,
      double instanceP50Ms,
      double instanceP99Ms) {
    public double instancesPerSecond() {
      return instances / seconds;
    }
  }

  private WorkflowBench() {}

  public static void main(String[] args) {
    List<String> stores = List.of((args.length > 0 ? args[0] : "sqlite,postgres").split(","));
    int sequential = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    int fanOutInstances = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    int fanOut = args.length > 3 ? Integer.parseInt(args[3]) : 100;
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
    boolean local = args.length > 5 && args[5].equals("local");
    StringBuilder table =
        new StringBuilder(
            "| store | shape | instances | seconds | instances/s | turns | turn p50 ms | turn p99"
                + " ms |\n|---|---|---|---|---|---|---|---|\n");
    for (String s : stores) {
      try (Target target = CallPathTiming.target(s)) {
        for (int round = 0; round <= rounds; round++) {
          List<Round> results = new ArrayList<>();
          results.add(run(target, sequential, 0, local));
          results.add(run(target, fanOutInstances, fanOut, local));
          if (round == 0) {
            continue; // warm-up: class loading and JIT compilation
          }
          for (Round r : results) {
            table.append(
                String.format(
                    "| %s | %s | %d | %.2f | %.1f | %d | %.1f | %.1f |%n",
                    r.store(),
                    r.shape(),
                    r.instances(),
                    r.seconds(),
                    r.instancesPerSecond(),
                    r.turns(),
                    r.turnP50Ms(),
                    r.turnP99Ms()));
          }
        }
      }
    }
    System.out.println(table);
  }

  /**
   * One round on a fresh database: {@code instances} of the 3-activity orchestration ({@code
   * fanOut} 0) or of the fan-out of {@code fanOut} activities, all completed.
   */
  public static Round run(Target target, int instances, int fanOut) {
    return run(target, instances, fanOut, false);
  }

  /** As {@link #run(Target, int, int)}, the activities local when {@code local}. */
  public static Round run(Target target, int instances, int fanOut, boolean local) {
    if (instances < 1 || fanOut < 0) {
      throw new IllegalArgumentException("instances: at least 1; fanOut: 0 or more");
    }
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    meters
        .config()
        .meterFilter(
            new MeterFilter() {
              @Override
              public DistributionStatisticConfig configure(
                  Meter.Id id, DistributionStatisticConfig config) {
                if (id.getName().equals("redrive.workflow.turn.duration")) {
                  return DistributionStatisticConfig.builder()
                      .percentiles(0.5, 0.99)
                      .build()
                      .merge(config);
                }
                return config;
              }
            });
    String name = fanOut == 0 ? "sequential" : "fanout";
    try (BenchDatabase db = target.newDatabase();
        Redrive redrive = Redrive.builder(db.openStore(8)).build();
        WorkflowRuntime runtime =
            settings(WorkflowRuntime.builder(redrive, registry(local)))
                .nodeId("bench")
                .meterRegistry(meters)
                .pollInterval(Duration.ofMillis(100))
                .build()
                .start()) {
      WorkflowClient client = runtime.client();
      long started = System.nanoTime();
      List<String> ids = new ArrayList<>(instances);
      for (int i = 0; i < instances; i++) {
        ids.add(client.start(StartRequest.of(name, fanOut == 0 ? i : fanOut)).instanceId());
      }
      long[] latencies = new long[instances];
      for (int i = 0; i < instances; i++) {
        InstanceInfo done = client.await(ids.get(i), Duration.ofMinutes(10));
        if (done.status() != InstanceStatus.COMPLETED) {
          throw new IllegalStateException("instance " + ids.get(i) + " did not complete");
        }
        latencies[i] = Duration.between(done.createdAt(), done.completedAt()).toMillis();
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      Arrays.sort(latencies);
      Timer turns = meters.get("redrive.workflow.turn.duration").timer();
      double p50 = 0;
      double p99 = 0;
      for (ValueAtPercentile v : turns.takeSnapshot().percentileValues()) {
        if (v.percentile() == 0.5) {
          p50 = v.value(TimeUnit.MILLISECONDS);
        } else if (v.percentile() == 0.99) {
          p99 = v.value(TimeUnit.MILLISECONDS);
        }
      }
      return new Round(
          target.name(),
          (fanOut == 0 ? "3 activities" : "fan-out " + fanOut) + (local ? " (local)" : ""),
          instances,
          seconds,
          turns.count(),
          p50,
          p99,
          percentile(latencies, 50),
          percentile(latencies, 99));
    }
  }

  /**
   * The runtime's defaults, unless {@code -Dbench.turns} or {@code -Dbench.activities} set its
   * orchestration or activity concurrency (to measure what they limit).
   */
  static WorkflowRuntime.Builder settings(WorkflowRuntime.Builder b) {
    Integer turns = Integer.getInteger("bench.turns");
    Integer activities = Integer.getInteger("bench.activities");
    if (turns != null) {
      b.orchestrationConcurrency(turns);
    }
    if (activities != null) {
      b.activityConcurrency(activities);
    }
    return b;
  }

  /** The {@code p}th percentile (nearest rank) of sorted values. */
  static double percentile(long[] sorted, double p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  static WorkflowRegistry registry(boolean local) {
    return WorkflowRegistry.builder()
        .orchestration(
            "sequential",
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              int a = ctx.callActivity("add", n, Integer.class).await();
              int b = ctx.callActivity("add", a, Integer.class).await();
              return ctx.callActivity("add", b, Integer.class).await();
            })
        .orchestration(
            "fanout",
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              List<Task<Integer>> parts = new ArrayList<>(n);
              for (int i = 0; i < n; i++) {
                parts.add(ctx.callActivity("add", i, Integer.class));
              }
              return ctx.allOf(parts).await().stream().mapToInt(Integer::intValue).sum();
            })
        .activity(
            ActivityRegistration.of("add", Integer.class, Integer.class, (ctx, n) -> n + 1)
                .withTimeout(local ? Duration.ofSeconds(5) : null))
        .build();
  }
}
