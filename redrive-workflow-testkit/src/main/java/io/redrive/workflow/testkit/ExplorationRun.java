package io.redrive.workflow.testkit;

import io.redrive.Redrive;
import io.redrive.sqlite.SqliteStore;
import io.redrive.test.TestClock;
import io.redrive.test.TestRedrive;
import io.redrive.workflow.Activity;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One run of the explored orchestration: a fresh SQLite store in a temporary directory, the real
 * runtime on it with a {@link TestClock}, the failure point (if any) injected, and the clock moved
 * forward by a {@link RuntimeDriver} whenever nothing runs (to the next timer, backoff or lease
 * expiry) until the instance ends.
 */
final class ExplorationRun {
  static final Duration TURN_LEASE = Duration.ofSeconds(10);
  static final Duration ACTIVITY_LEASE = Duration.ofSeconds(10);
  private static final Duration HORIZON = Duration.ofDays(3660);
  private static final Duration STALL_TIMEOUT = Duration.ofSeconds(10);

  /** What a run leaves: how it ended, and what the clean run tells about failure points. */
  record Result(ExploredRun run, int commits, List<ActivityCall> calls) {}

  private final WorkflowRegistry registry;
  private final FailurePoint point;
  private final String rootId;
  private final TestClock clock = new TestClock(TestRedrive.CLOCK_START);
  private final RuntimeDriver driver;
  private final FaultyStore faults;
  private final SqliteStore sqlite;
  private final Path directory;
  private final Map<String, Integer> handlerRuns = new ConcurrentHashMap<>();
  private final List<ActivityCall> calls = new ArrayList<>();
  private final Map<ActivityCall, CountDownLatch> finished = new ConcurrentHashMap<>();
  private final StubbedActivities stubbed;

  private ExplorationRun(
      WorkflowRegistry user, Map<String, ActivityStub> stubs, FailurePoint point, int index) {
    this.point = point;
    this.rootId = "explore-" + index;
    try {
      this.directory = Files.createTempDirectory("redrive-explore");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.sqlite = SqliteStore.inDirectory(directory);
    this.driver = new RuntimeDriver(clock, user.activityQueues());
    this.faults =
        new FaultyStore(
            sqlite, point, clock, ACTIVITY_LEASE, this::canonical, driver::leaseLeftUntil);
    this.stubbed = new StubbedActivities(user, false);
    stubs.forEach(stubbed::stub);
    this.registry =
        Registries.wrapActivities(stubbed.registry(driver, ACTIVITY_LEASE), r -> counted(r.code()));
  }

  static Result run(
      WorkflowRegistry registry,
      Map<String, ActivityStub> stubs,
      String name,
      Object input,
      FailurePoint point,
      int index) {
    ExplorationRun run = new ExplorationRun(registry, stubs, point, index);
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
                .pollInterval(RuntimeDriver.POLL_INTERVAL)
                .turnLeaseTimeout(TURN_LEASE)
                .activityLeaseTimeout(ACTIVITY_LEASE)
                .build()
                .start()) {
      driver.attach(redrive, sqlite, runtime);
      WorkflowClient client = runtime.client();
      client.start(StartRequest.of(name, input).withInstanceId(rootId));
      InstanceInfo info;
      try {
        info = driver.runUntilEnded(client, rootId, HORIZON);
      } catch (IllegalStateException e) {
        throw new IllegalStateException(
            "explorer: the run "
                + (point == null ? "without failures" : "at " + point.describe())
                + " did not settle: "
                + e.getMessage(),
            e);
      } finally {
        stubbed.releaseCrashed(); // before the runtime stops, which waits for its activities
      }
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
    } finally {
      driver.close();
    }
  }

  /** Counts and records each run of {@code code}, and stalls it at its failure point. */
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
      driver.activityStarted();
      try {
        if (point != null
            && point.kind() == Kind.LEASE_EXPIRED_DURING_ACTIVITY
            && call.equals(point.call())
            && faults.fire()) {
          stall(call, ctx.attempt());
        }
        handlerRuns.merge(ctx.activityName(), 1, Integer::sum);
        Object result = code.run(ctx, input);
        finished(call).countDown();
        return result;
      } finally {
        driver.activityEnded();
      }
    };
  }

  /**
   * This delivery stalls before its handler starts: its lease runs out (renewals refused, the clock
   * past the lease), another delivery runs the activity to its end and settles, then this one goes
   * on. It counts as running throughout, so the run is not taken for idle while it stalls.
   */
  private void stall(ActivityCall call, int attempt) {
    faults.freeze(call, attempt);
    clock.advance(ACTIVITY_LEASE.plusSeconds(1));
    try {
      long until = System.nanoTime() + STALL_TIMEOUT.toNanos();
      finished(call).await(STALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      faults
          .settledElsewhere(call)
          .await(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("explorer: interrupted", e);
    }
  }

  private CountDownLatch finished(ActivityCall call) {
    return finished.computeIfAbsent(call, c -> new CountDownLatch(1));
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
}
