package io.redrive.bench;

import io.redrive.Redrive;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.DurablePostgres;
import io.redrive.bench.contender.PostgresTarget;
import io.redrive.bench.contender.TableStats;
import io.redrive.bench.contender.Target;
import io.redrive.maintenance.Maintenance;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRuntime;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether every table the workflow path writes levels off under a steady load (docs/benchmarks.md,
 * "Workflow tables over an hour"; issue 34, "Bounded tables"): one runtime (as {@link
 * WorkflowBench} runs it, with the maintenance sweep a server runs) on a fresh PostgreSQL schema
 * runs {@link SoakWorkflows} started at a steady rate; the soak raises most instances' event, and
 * deletes each tree once it ended and is older than the retention (the product keeps ended
 * instances until asked to delete them, so the soak is the operator's retention job). Every sample
 * period it reads the size and vacuum statistics of {@link #TABLES} and prints them; at the end, a
 * summary per table: total size at minute 5, at half time and at the end, and the growth per minute
 * over the middle and last thirds — the verdict.
 *
 * <p>Run: {@code java -cp redrive-bench/target/redrive-bench.jar io.redrive.bench.WorkflowSoak
 * [store] [minutes] [rate] [sampleSeconds] [retentionMinutes]}, defaults {@code postgres 60 2 60
 * 5}: {@code postgres} is the server {@code REDRIVE_PG_URL} names, else the benchmark's embedded
 * one; a {@code jdbc:postgresql:} url names one directly. {@code rate} is root instances started a
 * second.
 */
public final class WorkflowSoak {
  /**
   * Every table an instance's life writes, from the PostgreSQL migrations: the workflow tables and
   * the queue tables its activities go through (queue rows, messages and their history, completion
   * records, throughput counters and depth snapshots).
   */
  public static final List<String> TABLES =
      List.of(
          "redrive_wf_instances",
          "redrive_wf_executions",
          "redrive_wf_history",
          "redrive_wf_inbox",
          "redrive_wf_activities",
          "redrive_wf_turns",
          "redrive_wf_nodes",
          "redrive_messages",
          "redrive_history",
          "redrive_completions",
          "redrive_queues",
          "redrive_throughput",
          "redrive_depth");

  /**
   * What to run.
   *
   * @param duration how long the load runs
   * @param rate root instances started a second
   * @param samplePeriod how often the tables are read
   * @param retention how long after its start an ended tree is deleted
   */
  public record Settings(
      Duration duration, double rate, Duration samplePeriod, Duration retention) {
    public Settings {
      if (duration.isNegative() || duration.isZero() || !(rate > 0)) {
        throw new IllegalArgumentException(
            "duration and rate: must be positive, were " + duration + " and " + rate);
      }
      if (samplePeriod.isNegative()
          || samplePeriod.isZero()
          || samplePeriod.compareTo(duration) > 0) {
        throw new IllegalArgumentException(
            "samplePeriod: positive and at most the duration, was " + samplePeriod);
      }
    }
  }

  /** How many instances had reached each point when a sample was taken. */
  public record Counts(long started, long deleted, long failed, long errors) {}

  /** The tables at one moment, {@code minutes} after the load began. */
  public record Sample(double minutes, Instant at, Counts counts, List<TableStats.Table> tables) {}

  private WorkflowSoak() {}

  public static void main(String[] args) {
    String store = args.length > 0 ? args[0] : "postgres";
    Settings settings =
        new Settings(
            Duration.ofMinutes(args.length > 1 ? Long.parseLong(args[1]) : 60),
            args.length > 2 ? Double.parseDouble(args[2]) : 2,
            Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 60),
            Duration.ofMinutes(args.length > 4 ? Long.parseLong(args[4]) : 5));
    String url;
    if (store.startsWith("jdbc:postgresql:")) {
      url = store;
    } else if (store.equals("postgres")) {
      String env = System.getenv("REDRIVE_PG_URL");
      url = env != null && !env.isBlank() ? env.trim() : DurablePostgres.adminUrl();
    } else {
      throw new IllegalArgumentException("store: postgres or a jdbc:postgresql: url, was " + store);
    }
    try (Target target = new PostgresTarget(url)) {
      System.out.println("# " + target.version());
      System.out.println("# settings: " + target.settings());
      System.out.println("# " + settings);
      List<Sample> samples = run(target, settings, System.out);
      System.out.println(SoakReport.summary(samples));
    }
    System.exit(0); // the embedded server's shutdown hook stops it
  }

  /**
   * Runs the soak on a fresh schema of {@code target} (a PostgreSQL one), printing each sample to
   * {@code out} as it is taken; answers the samples, the first taken before the load starts.
   */
  public static List<Sample> run(Target target, Settings settings, PrintStream out) {
    List<Sample> samples = new ArrayList<>();
    try (BenchDatabase db = target.newDatabase();
        Redrive redrive = Redrive.builder(db.openStore(8)).build();
        Maintenance maintenance = Maintenance.start(redrive);
        WorkflowRuntime runtime =
            WorkflowRuntime.builder(redrive, SoakWorkflows.registry())
                .nodeId("soak")
                .pollInterval(Duration.ofMillis(100))
                .build()
                .start();
        Connection stats = db.connect()) {
      Load load = new Load(runtime.client(), settings.retention());
      long began = System.nanoTime();
      samples.add(sample(stats, began, load, out));
      ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
      try {
        long periodMicros = Math.max(1, Math.round(1_000_000 / settings.rate()));
        timers.scheduleAtFixedRate(
            () -> load.startOne(timers), 0, periodMicros, TimeUnit.MICROSECONDS);
        timers.scheduleWithFixedDelay(load::deleteEnded, 10, 10, TimeUnit.SECONDS);
        long period = settings.samplePeriod().toNanos();
        long end = began + settings.duration().toNanos();
        for (long next = began + period; next <= end + period / 2; next += period) {
          sleepUntil(next);
          samples.add(sample(stats, began, load, out));
        }
      } finally {
        timers.shutdownNow();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("closing the statistics connection failed", e);
    }
    return samples;
  }

  private static Sample sample(Connection stats, long began, Load load, PrintStream out) {
    double minutes = (System.nanoTime() - began) / 60e9;
    Sample s = new Sample(minutes, Instant.now(), load.counts(), TableStats.read(stats, TABLES));
    out.println(SoakReport.sample(s));
    out.flush();
    return s;
  }

  private static void sleepUntil(long nanoTime) {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("the soak was interrupted", e);
      }
    }
  }

  /** The load: starts instances, raises their events, deletes ended trees past the retention. */
  private static final class Load {
    private record Started(String id, long at) {}

    private final WorkflowClient client;
    private final long retentionNanos;
    private final AtomicInteger next = new AtomicInteger(1);
    private final Deque<Started> kept = new ArrayDeque<>(); // guarded by itself, oldest first
    private final AtomicLong deleted = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    Load(WorkflowClient client, Duration retention) {
      this.client = client;
      this.retentionNanos = retention.toNanos();
    }

    Counts counts() {
      return new Counts(next.get() - 1L, deleted.get(), failed.get(), errors.get());
    }

    void startOne(ScheduledExecutorService timers) {
      int n = next.getAndIncrement();
      try {
        String id = client.start(StartRequest.of(SoakWorkflows.ROOT, n)).instanceId();
        synchronized (kept) {
          kept.addLast(new Started(id, System.nanoTime()));
        }
        if (SoakWorkflows.raisesEvent(n)) {
          timers.schedule(() -> raise(id), 3, TimeUnit.SECONDS);
        }
      } catch (RuntimeException e) {
        error("start " + n, e);
      }
    }

    private void raise(String id) {
      try {
        client.raiseEvent(id, SoakWorkflows.EVENT, Boolean.TRUE, null);
      } catch (RuntimeException e) {
        error("raise " + id, e);
      }
    }

    /** Deletes every tree started more than the retention ago that has ended. */
    void deleteEnded() {
      long cutoff = System.nanoTime() - retentionNanos;
      List<Started> due = new ArrayList<>();
      synchronized (kept) {
        while (!kept.isEmpty() && kept.peekFirst().at() - cutoff < 0) {
          due.add(kept.pollFirst());
        }
      }
      for (Started s : due) {
        try {
          Optional<InstanceInfo> info = client.get(s.id());
          if (info.isPresent() && !info.get().status().terminal()) {
            synchronized (kept) {
              kept.addLast(s); // still running: look again later
            }
            continue;
          }
          if (info.isPresent()) {
            if (info.get().failure() != null) {
              failed.incrementAndGet();
            }
            client.delete(s.id(), false);
          }
          deleted.incrementAndGet();
        } catch (RuntimeException e) {
          error("delete " + s.id(), e);
        }
      }
    }

    private void error(String what, RuntimeException e) {
      if (errors.incrementAndGet() <= 20) {
        System.err.println("soak: " + what + " failed: " + e);
      }
    }
  }
}
