package io.redrive.workflow.testkit;

import io.redrive.workflow.Activity;
import io.redrive.workflow.ActivityContext;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The stubs a test set per activity name, and the deliveries each activity ran. The registry it
 * hands a runtime looks the stubs up at each delivery, so stubs set while the runtime runs apply to
 * the next delivery. Thread-safe: activities run on worker threads.
 */
final class StubbedActivities {
  private final WorkflowRegistry user;
  private final boolean recording;
  private final Map<String, ActivityStub> stubs = new ConcurrentHashMap<>();
  private final Map<String, List<ActivityDelivery>> calls = new ConcurrentHashMap<>();
  private volatile CountDownLatch crashed = new CountDownLatch(1);

  /**
   * Stubs for {@code user}'s activities; {@code recording}: the environment's, which records each
   * delivery and counts it as running (the explorer's own layer around them does that there).
   */
  StubbedActivities(WorkflowRegistry user, boolean recording) {
    this.user = user;
    this.recording = recording;
  }

  /**
   * @throws IllegalArgumentException when {@code activity} is not registered
   */
  void stub(String activity, ActivityStub stub) {
    if (user.activity(activity).isEmpty()) {
      throw new IllegalArgumentException(
          "activity: \""
              + activity
              + "\" is not registered; only registered activities can be stubbed (registered: "
              + user.activityNames()
              + ")");
    }
    stubs.put(activity, java.util.Objects.requireNonNull(stub, "stub"));
  }

  /** The stubs alone, for the explorer's runs (which record nothing here). */
  Map<String, ActivityStub> stubs() {
    return Map.copyOf(stubs);
  }

  ActivityCalls calls(String activity) {
    List<ActivityDelivery> list = calls.getOrDefault(activity, List.of());
    synchronized (list) {
      return new ActivityCalls(activity, list);
    }
  }

  /** Forgets stubs and calls, and lets the threads of crashed deliveries end. */
  void reset() {
    stubs.clear();
    calls.clear();
    releaseCrashed();
  }

  void releaseCrashed() {
    CountDownLatch old = crashed;
    crashed = new CountDownLatch(1);
    old.countDown();
  }

  /** The user's registry with each activity run through its stub, counted by {@code driver}. */
  WorkflowRegistry registry(RuntimeDriver driver, Duration activityLease) {
    return Registries.wrapActivities(user, r -> run(r, driver, activityLease));
  }

  private Activity<Object, Object> run(
      ActivityRegistration r, RuntimeDriver driver, Duration activityLease) {
    return (ctx, input) -> {
      ActivityStub stub = stubs.get(r.name());
      boolean crash = stub != null && stub.crashesOn(ctx.attempt());
      if (recording) {
        record(r.name(), ctx, input, crash);
        driver.activityStarted();
      }
      try {
        if (crash) {
          vanish(driver, activityLease);
        }
        Activity<Object, Object> code =
            stub == null || stub.code() == null ? r.code() : stub.code();
        return code.run(ctx, input);
      } finally {
        if (recording) {
          driver.activityEnded();
        }
      }
    };
  }

  private void record(String name, ActivityContext ctx, Object input, boolean crash) {
    List<ActivityDelivery> list = calls.computeIfAbsent(name, n -> new ArrayList<>());
    synchronized (list) {
      list.add(
          new ActivityDelivery(
              ctx.instanceId(), ctx.activityId(), ctx.attempt(), ctx.retryNumber(), input, crash));
    }
  }

  /**
   * The worker is gone: this thread settles nothing until the environment resets (or the worker
   * interrupts it once its lease is lost), then throws, and that late settle is refused.
   */
  private void vanish(RuntimeDriver driver, Duration activityLease) {
    CountDownLatch latch = crashed;
    long id = driver.vanished(activityLease);
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      driver.forget(id);
      driver.activityStarted(); // the wrapper around counts this thread's end
    }
    throw new IllegalStateException("crashed on purpose: this delivery's worker vanished");
  }
}
