package io.redrive.workflow.testkit;

import io.redrive.Redrive;
import io.redrive.sqlite.SqliteStore;
import io.redrive.workflow.Activity;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import io.redrive.workflow.testkit.FailurePoint.ActivityCall;
import io.redrive.workflow.testkit.FailurePoint.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One run of the explored orchestration: a fresh SQLite store in a temporary directory, the real
 * runtime on it with the explorer's clock, the failure point (if any) injected, and the clock moved
 * forward whenever nothing runs (to the next timer, backoff or lease expiry) until the instance
 * ends.
 */
final class ExplorationRun {
  static final Duration TURN_LEASE = Duration.ofSeconds(10);
  static final Duration ACTIVITY_LEASE = Duration.ofSeconds(10);
  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration STALL_TIMEOUT = Duration.ofSeconds(10);
  private static final long TICK_MS = 10;
  private static final int QUIET_TICKS = 5;
  private static final int FALLBACK_TICKS = 30;

  /** What a run leaves: how it ended, and what the clean run tells about failure points. */
  record Result(ExploredRun run, int commits, List<ActivityCall> calls) {}

  private final WorkflowRegistry registry;
  private final FailurePoint point;
  private final String rootId;
  private final ExplorerClock clock = new ExplorerClock(START);
  private final FaultyStore faults;
  private final SqliteStore sqlite;
  private final Path directory;
  private final Map<String, Integer> handlerRuns = new ConcurrentHashMap<>();
  private final List<ActivityCall> calls = new ArrayList<>();
  private final Set<ActivityCall> finished = ConcurrentHashMap.newKeySet();
  private final AtomicInteger running = new AtomicInteger();

  private ExplorationRun(WorkflowRegistry user, FailurePoint point, int index) {
    this.point = point;
    this.rootId = "explore-" + index;
    try {
      this.directory = Files.createTempDirectory("redrive-explore");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.sqlite = SqliteStore.inDirectory(directory);
    this.faults = new FaultyStore(sqlite, point, clock, ACTIVITY_LEASE, this::canonical);
    this.registry = wrap(user);
  }

  static Result run(
      WorkflowRegistry registry, String name, Object input, FailurePoint point, int index) {
    ExplorationRun run = new ExplorationRun(registry, point, index);
    try {
      return run.run(name, input);
    } finally {
      run.deleteDirectory();
    }
  }

  private Result run(String name, Object input) {
    try (Redrive redrive = Redrive.builder(faults.proxy()).clock(clock).build();
        WorkflowRuntime runtime =
            WorkflowRuntime.builder(redrive, registry)
                .nodeId("explorer")
                .pollInterval(Duration.ofMillis(TICK_MS))
                .turnLeaseTimeout(TURN_LEASE)
                .activityLeaseTimeout(ACTIVITY_LEASE)
                .build()
                .start()) {
      WorkflowClient client = runtime.client();
      client.start(StartRequest.of(name, input).withInstanceId(rootId));
      InstanceInfo info = drive(client, runtime);
      WorkflowFailure f = info.failure();
      String failure =
          f == null ? null : f.display() != null ? f.display() : f.reason() + ": " + f.message();
      ExploredRun result =
          new ExploredRun(
              point,
              point != null && faults.fired(),
              rootId,
              info.status(),
              info.status() == InstanceStatus.COMPLETED ? info.output() : null,
              failure,
              handlerRuns);
      List<ActivityCall> order;
      synchronized (calls) {
        order = List.copyOf(calls);
      }
      return new Result(result, faults.commits(), order);
    }
  }

  /** Lets the runtime work; when nothing runs for a while, moves the clock to what is due next. */
  private InstanceInfo drive(WorkflowClient client, WorkflowRuntime runtime) {
    long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
    int quiet = 0;
    while (true) {
      InstanceInfo info = client.get(rootId).orElseThrow();
      if (info.status().terminal() || System.nanoTime() > deadline) {
        return info;
      }
      sleep(TICK_MS);
      if (runtime.turnsInFlight() > 0 || running.get() > 0) {
        quiet = 0;
        continue;
      }
      if (++quiet < QUIET_TICKS) {
        continue;
      }
      Instant now = clock.instant();
      Instant target = null;
      Optional<Instant> due = sqlite.nextDueAt(now);
      if (due.isPresent() && due.get().isAfter(now)) {
        target = due.get();
      }
      Instant wake = faults.wakeAt();
      if (wake != null && wake.isAfter(now) && (target == null || wake.isBefore(target))) {
        target = wake;
      }
      if (target == null && due.isEmpty() && quiet >= FALLBACK_TICKS) {
        target = now.plusSeconds(1); // an activity's backoff, not announced anywhere
      }
      if (target != null) {
        clock.advanceTo(target);
        quiet = 0;
      }
    }
  }

  /** The user's registry with every activity counted and, at its failure point, stalled. */
  private WorkflowRegistry wrap(WorkflowRegistry user) {
    WorkflowRegistry.Builder b = WorkflowRegistry.builder().orchestrationsOf(user);
    for (String name : user.activityNames()) {
      ActivityRegistration r = user.activity(name).orElseThrow();
      b.activity(
          new ActivityRegistration(
              r.name(),
              r.inputType(),
              r.outputType(),
              counted(r.code()),
              r.timeout(),
              r.queue(),
              r.classifier()));
    }
    return b.build();
  }

  private Activity<Object, Object> counted(Activity<Object, Object> code) {
    return (ctx, input) -> {
      ActivityCall call =
          new ActivityCall(
              canonical(ctx.instanceId()), ctx.activityName(), ctx.activityId(), ctx.retryNumber());
      synchronized (calls) {
        if (!calls.contains(call)) {
          calls.add(call);
        }
      }
      running.incrementAndGet();
      try {
        if (point != null
            && point.kind() == Kind.LEASE_EXPIRED_DURING_ACTIVITY
            && call.equals(point.call())
            && faults.fire()) {
          stall(call, ctx.attempt());
        }
        handlerRuns.merge(ctx.activityName(), 1, Integer::sum);
        Object result = code.run(ctx, input);
        finished.add(call);
        return result;
      } finally {
        running.decrementAndGet();
      }
    };
  }

  /**
   * This delivery stalls before its handler starts: its lease runs out (renewals refused, the clock
   * past the lease), another delivery runs the activity to its end, then this one goes on.
   */
  private void stall(ActivityCall call, int attempt) {
    faults.freeze(call, attempt);
    clock.advance(ACTIVITY_LEASE.plusSeconds(1));
    running.decrementAndGet();
    try {
      long until = System.nanoTime() + STALL_TIMEOUT.toNanos();
      while (!finished.contains(call) && System.nanoTime() < until) {
        sleep(TICK_MS);
      }
    } finally {
      running.incrementAndGet();
    }
  }

  /** Instance ids as failure points name them: the same in every run. */
  private String canonical(String instanceId) {
    return instanceId.startsWith(rootId)
        ? FailurePoint.ROOT + instanceId.substring(rootId.length())
        : instanceId;
  }

  private void deleteDirectory() {
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is not worth failing the user's test for
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("explorer: interrupted", e);
    }
  }
}
