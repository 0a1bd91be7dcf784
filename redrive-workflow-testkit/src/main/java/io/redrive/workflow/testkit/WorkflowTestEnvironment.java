package io.redrive.workflow.testkit;

import io.redrive.queue.QueuePolicy;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.test.TestClock;
import io.redrive.test.TestRedrive;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.InstancePage;
import io.redrive.workflow.InstanceQuery;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A real {@link WorkflowRuntime} for a test, on a {@link TestRedrive}'s engine (the same store and
 * {@link TestClock}) with the application's {@link WorkflowRegistry}: start instances, raise
 * events, stub activities by name, skip time so a 30-day timer fires at once, assert how instances
 * ended, and run the failure-point explorer with the same stubs (docs/testing.md).
 *
 * <p>Every step that hands the runtime work ({@link #start}, {@link #raiseEvent}, {@link #skip})
 * returns once the runtime is idle: no turn or activity runs and none is due at the clock's
 * instant. Time moves only when the test moves it. {@link WorkflowTestExtension} makes one per test
 * class on {@code RedriveExtension}'s engine and {@link #reset() resets} it with that engine before
 * each test; {@link #open} makes one by hand. Meant for one test thread; the runtime's threads are
 * its own.
 */
public final class WorkflowTestEnvironment implements AutoCloseable {
  /** The node id of the environment's runtime, as turn tries and deliveries name it. */
  public static final String NODE_ID = "test-node";

  /** The longest the clock is moved by {@link #runUntilEnded(String)}. */
  public static final Duration HORIZON = Duration.ofDays(366);

  private static final Duration IDLE_LIMIT = Duration.ofSeconds(30);

  private final TestRedrive redrive;
  private final WorkflowRegistry registry;
  private final StubbedActivities stubs;
  private final Settings settings;
  private final WorkflowClient client;
  private WorkflowRuntime runtime;
  private RuntimeDriver driver;

  private WorkflowTestEnvironment(TestRedrive redrive, WorkflowRegistry registry, Settings s) {
    this.redrive = Objects.requireNonNull(redrive, "redrive");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.settings = s;
    this.stubs = new StubbedActivities(registry, true);
    this.client = WorkflowClient.on(redrive.engine());
    redrive.onReset(this::reset);
  }

  /** An environment with the default runtime settings, reset whenever {@code redrive} is. */
  public static WorkflowTestEnvironment open(TestRedrive redrive, WorkflowRegistry registry) {
    return builder().open(redrive, registry);
  }

  /** Runtime settings for environments (attempts, crash breaker, activity lease, the rest). */
  public static Builder builder() {
    return new Builder(new Settings(QueuePolicy.DEFAULT_LEASE_TIMEOUT, b -> {}));
  }

  /** The engine the runtime works on. */
  public TestRedrive redrive() {
    return redrive;
  }

  /** The clock of the engine and the runtime. */
  public TestClock clock() {
    return redrive.clock();
  }

  /** A client on the engine, as the application's code would use. */
  public WorkflowClient client() {
    return client;
  }

  /** Starts orchestration {@code name} (its default version) and runs until idle; its id. */
  public String start(String name, Object input) {
    return start(StartRequest.of(name, input));
  }

  /** Starts {@code request} and runs until idle; returns the instance id. */
  public String start(StartRequest request) {
    driver();
    String id = client.start(request).instanceId();
    runUntilIdle();
    return id;
  }

  /**
   * Raises event {@code name} with {@code payload} for {@code instanceId}, then runs until idle.
   */
  public void raiseEvent(String instanceId, String name, Object payload) {
    driver();
    client.raiseEvent(instanceId, name, payload, null);
    runUntilIdle();
  }

  /**
   * Lets the runtime run turns and activities until none runs and none is due now. Work the
   * application started on its own (a start in its transaction) is picked up too.
   *
   * @throws IllegalStateException when the runtime is still busy after 30 s (wall time): a loop
   */
  public void runUntilIdle() {
    driver().awaitIdle(IDLE_LIMIT);
  }

  /**
   * Moves the clock forward by {@code d} and runs until idle: timers, retry backoffs and expired
   * leases due by then run now.
   */
  public void skip(Duration d) {
    driver();
    redrive.advance(d);
    runUntilIdle();
  }

  /**
   * Runs until idle, then moves the clock to what is due next (a timer, a backoff, a crashed
   * delivery's lease end) and again, until {@code instanceId} ended, nothing is due, or the clock
   * moved {@link #HORIZON}; returns the instance then. An instance waiting for an event with no
   * timeout stays RUNNING.
   */
  public InstanceInfo runUntilEnded(String instanceId) {
    return driver().runUntilEnded(client, instanceId, HORIZON);
  }

  /**
   * From the next delivery on, activity {@code activity} runs {@code stub} instead of its
   * registered code, until {@link #reset}; a later stub of the same activity replaces it.
   *
   * @throws IllegalArgumentException when {@code activity} is not registered
   */
  public WorkflowTestEnvironment stub(String activity, ActivityStub stub) {
    stubs.stub(activity, stub);
    return this;
  }

  /** The deliveries {@code activity} ran since the last reset (stubbed or not). */
  public ActivityCalls calls(String activity) {
    return stubs.calls(activity);
  }

  /** Assertions on instance {@code instanceId} as it is now. */
  public WorkflowAssert assertInstance(String instanceId) {
    return new WorkflowAssert(client, instanceId);
  }

  /**
   * Runs the failure-point explorer ({@link WorkflowTestkit#explore}) on this environment's
   * registry with its current stubs (crashes included); the explorer's runs have stores of their
   * own, and record no calls here.
   */
  public ExplorationReport explore(String name, Object input) {
    return WorkflowTestkit.explore(registry, stubs.stubs(), name, input);
  }

  /**
   * Stops the runtime, deletes every instance and forgets stubs and calls; the engine's own reset
   * (which calls this) then empties its queues and sets the clock back. The runtime starts again
   * with the next step.
   */
  public synchronized void reset() {
    stopRuntime();
    stubs.reset();
    deleteInstances();
  }

  /** Stops the runtime. The engine stays open (it belongs to whoever made it). */
  @Override
  public synchronized void close() {
    stopRuntime();
    stubs.releaseCrashed();
  }

  private synchronized RuntimeDriver driver() {
    if (driver == null) {
      WorkflowStore store = (WorkflowStore) redrive.store();
      RuntimeDriver d = new RuntimeDriver(redrive.clock(), registry.activityQueues());
      WorkflowRuntime.Builder b =
          WorkflowRuntime.builder(redrive.engine(), stubs.registry(d, settings.activityLease()))
              .nodeId(NODE_ID)
              .pollInterval(RuntimeDriver.POLL_INTERVAL)
              .activityLeaseTimeout(settings.activityLease());
      settings.runtime().accept(b);
      runtime = b.build().start();
      d.attach(redrive.engine(), store, runtime);
      driver = d;
    }
    return driver;
  }

  private void stopRuntime() {
    if (runtime != null) {
      stubs.releaseCrashed();
      runtime.stop(Duration.ofSeconds(5));
      driver.close();
      runtime = null;
      driver = null;
    }
  }

  private void deleteInstances() {
    InstancePage page;
    do {
      page = client.list(InstanceQuery.all(InstanceQuery.MAX_LIMIT).withRootsOnly(true));
      page.instances().forEach(i -> client.delete(i.id(), true));
    } while (!page.instances().isEmpty());
  }

  private record Settings(Duration activityLease, Consumer<WorkflowRuntime.Builder> runtime) {}

  /** Configures environments; immutable, each setter returns a new builder. */
  public static final class Builder {
    private final Settings s;

    private Builder(Settings s) {
      this.s = s;
    }

    /**
     * Deliveries of an activity message (and tries of a turn) before poison (default 10); checked
     * when the runtime starts.
     */
    public Builder maxAttempts(int value) {
      return configure(b -> b.maxAttempts(value));
    }

    /**
     * The crash-loop breaker (default 2 distinct workers). The environment is one process, so its
     * crashed activity deliveries are outages, not crashes (docs/engine.md, "Crash evidence"), and
     * are poisoned by {@link #maxAttempts}.
     */
    public Builder maxCrashes(int value) {
      return configure(b -> b.maxCrashes(value));
    }

    /** The activity lease (default 30 s): how far the clock moves past a crashed delivery. */
    public Builder activityLeaseTimeout(Duration value) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("activityLeaseTimeout: must be positive, was " + value);
      }
      return new Builder(new Settings(value, s.runtime()));
    }

    /**
     * Applies {@code value} to the runtime's builder after the environment's settings (node id,
     * poll interval, activity lease); leave the activity lease to {@link #activityLeaseTimeout}.
     */
    public Builder configure(Consumer<WorkflowRuntime.Builder> value) {
      Objects.requireNonNull(value, "value");
      return new Builder(new Settings(s.activityLease(), s.runtime().andThen(value)));
    }

    /** An environment on {@code redrive}, reset whenever it is. */
    public WorkflowTestEnvironment open(TestRedrive redrive, WorkflowRegistry registry) {
      return new WorkflowTestEnvironment(redrive, registry, s);
    }
  }
}
