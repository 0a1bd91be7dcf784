package io.redrive.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.Redrive;
import io.redrive.internal.workflow.WorkflowStores;
import io.redrive.queue.QueuePolicy;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.worker.Worker;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.runtime.ActivityQueues;
import io.redrive.workflow.runtime.NodeHeartbeat;
import io.redrive.workflow.runtime.OrchestrationCode;
import io.redrive.workflow.runtime.RuntimeSettings;
import io.redrive.workflow.runtime.TurnPoller;
import io.redrive.workflow.runtime.TurnProcessor;
import io.redrive.workflow.runtime.WorkflowMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs orchestrations and activities on this node (docs/workflows.md): a turn poller that leases
 * due instances and replays them, and one {@link Worker} per activity queue running the registered
 * activities and leasing only those (the queue's other activities are left to whoever registers
 * them: other nodes, workers over HTTP). Any number of runtimes, in one JVM or many, may share a
 * store; each turn runs on one of them at a time. Thread-safe; configure with {@link #builder},
 * then {@link #start()}.
 */
public final class WorkflowRuntime implements AutoCloseable {
  /** The parts of the work a node takes. */
  public enum Role {
    /** Orchestration turns. */
    ORCHESTRATIONS,
    /** Activity messages. */
    ACTIVITIES
  }

  private final Redrive redrive;
  private final WorkflowRegistry registry;
  private final RuntimeSettings settings;
  private final ObjectMapper mapper;
  private final WorkflowMetrics metrics;
  private final WorkflowStore store;
  private final Duration activityLeaseTimeout;
  private final List<Worker> workers = new ArrayList<>();
  private TurnPoller poller;
  private TurnProcessor processor;
  private NodeHeartbeat heartbeat;
  private WorkflowNode node;
  private boolean started;

  private WorkflowRuntime(Builder b) {
    this.redrive = b.redrive;
    this.registry = b.registry;
    this.mapper = b.mapper;
    this.activityLeaseTimeout = b.activityLeaseTimeout;
    this.metrics = new WorkflowMetrics(b.meterRegistry);
    this.store = WorkflowStores.require(redrive);
    Set<String> queues = new LinkedHashSet<>(b.activityQueues);
    queues.addAll(registry.activityQueues());
    this.settings =
        new RuntimeSettings(
            b.nodeId,
            b.buildId,
            b.maxAttempts,
            b.maxCrashes,
            b.unregisteredBackoff,
            b.turnLeaseTimeout,
            b.maxTurnDuration,
            b.localActivityMaxTimeout,
            b.orchestrationConcurrency,
            b.activityConcurrency,
            queues,
            b.maxBatch,
            b.maxHistoryEvents,
            b.maxHistoryBytes,
            b.pollInterval,
            b.roles.contains(Role.ORCHESTRATIONS),
            b.roles.contains(Role.ACTIVITIES),
            b.historyCacheSize,
            b.stickyWait);
  }

  /** A builder for a runtime on {@code redrive}'s store running {@code registry}'s code. */
  public static Builder builder(Redrive redrive, WorkflowRegistry registry) {
    return new Builder(redrive, registry);
  }

  /**
   * Creates the activity queues this node uses (workflow-owned, {@code maxAttempts} deliveries, the
   * crash-loop breaker at {@code maxCrashes}) when missing (an existing queue keeps its policy),
   * then starts the turn poller and the activity workers of its roles, and publishes this node
   * among the store's live nodes ({@link #node()}) until it stops.
   *
   * @throws IllegalStateException when an activity queue exists but is not workflow-owned
   */
  public synchronized WorkflowRuntime start() {
    if (started) {
      throw new IllegalStateException("runtime " + settings.nodeId() + " is already started");
    }
    started = true;
    redrive.keepAlive(); // a witness for its activity queues' leases before it leases any
    for (String queue : settings.activityQueues()) {
      ActivityQueues.ensure(redrive, queue, settings);
    }
    if (settings.activities()) {
      for (String queue : settings.activityQueues()) {
        ActivityQueues.startWorker(
                redrive,
                registry,
                queue,
                settings,
                activityLeaseTimeout,
                mapper,
                metrics.registry())
            .ifPresent(workers::add);
      }
    }
    if (settings.orchestrations()) {
      Payloads payloads = new Payloads(mapper, redrive.maxPayloadBytes());
      // The registry's code as the decider looks it up: the definitions stay internal.
      OrchestrationCode.Lookup code =
          (n, v) ->
              registry.orchestration(n, v).map(d -> new OrchestrationCode(d.code(), d.inputType()));
      processor = new TurnProcessor(store, redrive, registry, code, payloads, settings, metrics);
      poller = new TurnPoller(store, redrive.clock(), settings, processor);
      poller.start();
    }
    node = NodeRecords.of(registry, settings, redrive.clock().instant());
    heartbeat =
        NodeHeartbeat.start(
            store,
            redrive.clock(),
            settings,
            NodeRecords.registrations(node),
            node.startedAt(),
            WorkflowDefaults.NODE_HEARTBEAT);
    return this;
  }

  /**
   * Stops leasing turns and activities and waits up to {@code grace} for those running.
   *
   * @return true when everything running ended within the grace
   */
  public synchronized boolean stop(Duration grace) {
    boolean ended = true;
    if (poller != null) {
      ended &= poller.stop(grace);
      poller = null;
    }
    for (Worker w : workers) {
      ended &= w.stop(grace);
    }
    workers.clear();
    if (heartbeat != null) {
      heartbeat.stop(); // after the drain: a node finishing its work is still live
      heartbeat = null;
    }
    return ended;
  }

  /** Stops with a 10-second grace. */
  @Override
  public void close() {
    stop(Duration.ofSeconds(10));
  }

  /** A client on this runtime's store with this runtime's JSON settings. */
  public WorkflowClient client() {
    return new StoreWorkflowClient(redrive, mapper);
  }

  /** This node's id. */
  public String nodeId() {
    return settings.nodeId();
  }

  /** What this node publishes as a live node (times as of its start); null before its start. */
  public synchronized WorkflowNode node() {
    return node;
  }

  /** Test hook: stops as a node that dies does (turns cut off, nothing refunded or let go). */
  synchronized void halt() {
    poller.halt();
    stop(Duration.ZERO);
  }

  /** Test hook: the turn processor, null before start or on an activities-only node. */
  TurnProcessor processor() {
    return processor;
  }

  /** Turns running on this node now. */
  public int turnsInFlight() {
    return poller == null ? 0 : poller.inFlight();
  }

  /** Configures a {@link WorkflowRuntime}; every setting has the documented default. */
  public static final class Builder {
    private final Redrive redrive;
    private final WorkflowRegistry registry;
    private String nodeId = NodeRecords.defaultNodeId();
    private String buildId;
    private int maxAttempts = WorkflowDefaults.MAX_ATTEMPTS;
    private int maxCrashes = WorkflowDefaults.MAX_CRASHES;
    private UnregisteredHandlerBackoff unregisteredBackoff = UnregisteredHandlerBackoff.DEFAULT;
    private Duration turnLeaseTimeout = WorkflowDefaults.TURN_LEASE_TIMEOUT;
    private Duration maxTurnDuration = WorkflowDefaults.MAX_TURN_DURATION;
    private Duration localActivityMaxTimeout = WorkflowDefaults.LOCAL_ACTIVITY_MAX_TIMEOUT;
    private int orchestrationConcurrency = 4;
    private int activityConcurrency = 32;
    private final Set<String> activityQueues =
        new LinkedHashSet<>(List.of(WorkflowDefaults.ACTIVITY_QUEUE));
    private int maxBatch = WorkflowDefaults.MAX_BATCH;
    private int maxHistoryEvents = WorkflowDefaults.MAX_HISTORY_EVENTS;
    private long maxHistoryBytes = WorkflowDefaults.MAX_HISTORY_BYTES;
    private Duration pollInterval = Duration.ofSeconds(1);
    private Duration activityLeaseTimeout = QueuePolicy.DEFAULT_LEASE_TIMEOUT;
    private Set<Role> roles = Set.of(Role.ORCHESTRATIONS, Role.ACTIVITIES);
    private ObjectMapper mapper = Json.defaultMapper();
    private MeterRegistry meterRegistry;
    private int historyCacheSize = WorkflowDefaults.HISTORY_CACHE_SIZE;
    private Duration stickyWait = WorkflowDefaults.STICKY_WAIT;

    private Builder(Redrive redrive, WorkflowRegistry registry) {
      if (redrive == null || registry == null) {
        throw new IllegalArgumentException("redrive and registry are required");
      }
      this.redrive = redrive;
      this.registry = registry;
    }

    /** This node's id in leases, turn rows and logs (default: {@code wf-<pid>@<host>}). */
    public Builder nodeId(String value) {
      this.nodeId = WorkflowRegistry.requireName("nodeId", value);
      return this;
    }

    /** The build this node runs, recorded in TURN_STARTED events (default none). */
    public Builder buildId(String value) {
      this.buildId = value;
      return this;
    }

    /** Counted tries of a turn's batch and deliveries of an activity message (default 10). */
    public Builder maxAttempts(int value) {
      this.maxAttempts =
          SettingChecks.between("maxAttempts", value, 1, QueuePolicy.MAX_MAX_ATTEMPTS);
      return this;
    }

    /**
     * The crash-loop breaker: a batch whose turn lease ran out on this many distinct nodes without
     * a commit between is poisoned at the next lease, before it can take another node down; the
     * activity queues this node creates get it as their {@code maxCrashes}, so an activity message
     * whose lease ran out on this many distinct workers is poisoned too (default 2; 0 turns it
     * off).
     */
    public Builder maxCrashes(int value) {
      this.maxCrashes = SettingChecks.between("maxCrashes", value, 0, 1000);
      return this;
    }

    /** The wait after a try that found no code or did not replay (default 1 s·2^(n−1) ≤ 60 s). */
    public Builder unregisteredBackoff(UnregisteredHandlerBackoff value) {
      this.unregisteredBackoff = SettingChecks.required("unregisteredBackoff", value);
      return this;
    }

    /** How long a turn lease lasts unless renewed (default 15 s; renewed every third). */
    public Builder turnLeaseTimeout(Duration value) {
      this.turnLeaseTimeout = SettingChecks.positive("turnLeaseTimeout", value);
      return this;
    }

    /** A turn running longer is interrupted and abandoned, counted (default 60 s). */
    public Builder maxTurnDuration(Duration value) {
      this.maxTurnDuration = SettingChecks.positive("maxTurnDuration", value);
      return this;
    }

    /**
     * The longest declared timeout of an activity that runs in the turn's process by default
     * ({@link ActivityPlacement#AUTO}); longer ones, and those with none, go through their queue
     * (default 30 s; never more than half of {@code maxTurnDuration}, since a local activity runs
     * inside its turn).
     */
    public Builder localActivityMaxTimeout(Duration value) {
      this.localActivityMaxTimeout = SettingChecks.positive("localActivityMaxTimeout", value);
      return this;
    }

    /** Turns this node runs at once (default 4). */
    public Builder orchestrationConcurrency(int value) {
      this.orchestrationConcurrency =
          SettingChecks.between("orchestrationConcurrency", value, 1, 1024);
      return this;
    }

    /** Activities this node runs at once per activity queue (default 32; mostly I/O waits). */
    public Builder activityConcurrency(int value) {
      this.activityConcurrency = SettingChecks.between("activityConcurrency", value, 1, 1024);
      return this;
    }

    /** More workflow-owned queues this node creates and serves (registered ones are added). */
    public Builder activityQueues(String... names) {
      for (String n : names) {
        activityQueues.add(io.redrive.queue.QueueNames.require("activityQueues", n));
      }
      return this;
    }

    /** Inbox rows one turn takes at most (default 500). */
    public Builder maxBatch(int value) {
      this.maxBatch = SettingChecks.between("maxBatch", value, 1, 10_000);
      return this;
    }

    /** Events one execution's history may hold (default 10 000). */
    public Builder maxHistoryEvents(int value) {
      this.maxHistoryEvents = SettingChecks.between("maxHistoryEvents", value, 10, 1_000_000);
      return this;
    }

    /** Bytes one execution's history may hold (default 16 MiB). */
    public Builder maxHistoryBytes(long value) {
      this.maxHistoryBytes = SettingChecks.atLeast("maxHistoryBytes", value, 1024);
      return this;
    }

    /** The longest the turn poller and activity workers sleep without a wake-up (default 1 s). */
    public Builder pollInterval(Duration value) {
      this.pollInterval = SettingChecks.positive("pollInterval", value);
      return this;
    }

    /**
     * How long this node's lease on an activity message lasts unless renewed (default 30 s): a node
     * that dies mid-activity holds the message this long before another node gets it.
     */
    public Builder activityLeaseTimeout(Duration value) {
      this.activityLeaseTimeout =
          QueuePolicy.requireLeaseTimeout(SettingChecks.positive("activityLeaseTimeout", value));
      return this;
    }

    /** The work this node takes (default both). */
    public Builder roles(Role... values) {
      if (values.length == 0) {
        throw new IllegalArgumentException("roles: name at least one role");
      }
      this.roles = Set.of(values);
      return this;
    }

    /**
     * Instances whose history this node keeps after committing their turns, so that their next
     * lease here reads only the inbox (default 1000; 0 turns the cache off). The store checks each
     * copy against the instance's counters; a turn that cannot use its copy is decided again from
     * the stored history.
     */
    public Builder historyCacheSize(int value) {
      this.historyCacheSize = SettingChecks.between("historyCacheSize", value, 0, 1_000_000);
      return this;
    }

    /**
     * How long an instance whose history another node keeps is left to that node before this one
     * leases its turn (default 1 s; what a node that dies costs each of its instances once). While
     * the history cache is on, commits make instances stick to this node until it stops; 0: off.
     */
    public Builder stickyWait(Duration value) {
      this.stickyWait = SettingChecks.notNegative("stickyWait", value);
      return this;
    }

    /** The JSON mapper of inputs and results (default: unknown properties ignored, Java time). */
    public Builder objectMapper(ObjectMapper value) {
      this.mapper = SettingChecks.required("objectMapper", value);
      return this;
    }

    /** Where the runtime's and its workers' meters go (default: none kept). */
    public Builder meterRegistry(MeterRegistry value) {
      this.meterRegistry = value;
      return this;
    }

    public WorkflowRuntime build() {
      return new WorkflowRuntime(this);
    }
  }
}
