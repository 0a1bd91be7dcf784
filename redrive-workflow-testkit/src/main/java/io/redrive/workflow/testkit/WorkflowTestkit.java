package io.redrive.workflow.testkit;

import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.testkit.FailurePoint.ActivityCall;
import io.redrive.workflow.testkit.FailurePoint.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Workflow tools for unit tests (docs/workflows.md, "Finding failure points in a unit test").
 * Thread-safe; each call works on its own temporary stores.
 */
public final class WorkflowTestkit {
  private WorkflowTestkit() {}

  /**
   * Runs orchestration {@code name} (its default version) with {@code input} on an embedded SQLite
   * store, once cleanly and then once per failure point of the clean run — a crash before each turn
   * commit, a lost settle after each activity call, a lease that runs out during each activity call
   * — and reports every outcome that differs from the clean run's and how often each activity's
   * handler ran. The real runtime runs each time, on a fresh store in a temporary directory, with a
   * clock that the explorer moves past timers, backoffs and lease expiries (so a run takes
   * milliseconds, not the minutes it simulates).
   *
   * <p>Each run starts its instance under its own id ({@link ExploredRun#instanceId()}), so state
   * an activity keeps outside Redrive, keyed by instance or by {@code
   * ActivityContext.idempotencyKey()}, does not leak from one run into the next. The activities run
   * for real, in this JVM: keep external effects in test doubles.
   *
   * @throws IllegalArgumentException when {@code name} is not registered
   */
  public static ExplorationReport explore(WorkflowRegistry registry, String name, Object input) {
    return explore(registry, Map.of(), name, input);
  }

  /** As {@link #explore(WorkflowRegistry, String, Object)}, with {@code stubs} by activity name. */
  static ExplorationReport explore(
      WorkflowRegistry registry, Map<String, ActivityStub> stubs, String name, Object input) {
    if (registry.defaultVersion(name).isEmpty()) {
      throw new IllegalArgumentException(
          "name: orchestration \"" + name + "\" is not registered in " + registry);
    }
    ExplorationRun.Result clean = ExplorationRun.run(registry, stubs, name, input, null, 0);
    List<FailurePoint> points = new ArrayList<>();
    for (int commit = 1; commit <= clean.commits(); commit++) {
      points.add(FailurePoint.crashBeforeCommit(commit));
    }
    for (ActivityCall call : clean.calls()) {
      points.add(FailurePoint.activity(Kind.SETTLE_LOST, call));
      points.add(FailurePoint.activity(Kind.LEASE_EXPIRED_DURING_ACTIVITY, call));
    }
    List<ExploredRun> runs = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      runs.add(ExplorationRun.run(registry, stubs, name, input, points.get(i), i + 1).run());
    }
    return new ExplorationReport(clean.run(), runs);
  }
}
