package io.redrive.worker;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.redrive.Redrive;
import io.redrive.maintenance.Maintenance;
import io.redrive.queue.QueueNames;
import io.redrive.queue.QueuePolicy;
import io.redrive.retry.UnregisteredHandlerBackoff;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Leases messages of one queue and runs them with the handler registered for their type, settling
 * each the way ARCHITECTURE.md promises: a return completes, a throw is classified and retried or
 * dead-lettered, a handler past its timeout is interrupted and failed as TIMEOUT_EXCEEDED. Its
 * leases name its handlers' types ({@link Builder#leaseOnlyHandledTypes}, on by default), so a type
 * it lacks waits for a worker that has it (the engine's unserved-types alert says so); leasing
 * every type, it abandons an unknown type with the unregistered-handler backoff. Leases are renewed
 * every {@code leaseTimeout/3} while handlers run.
 *
 * <p>Build with {@link #builder}, then {@link #start()}; {@link #stop(Duration)} (or {@link
 * #close()}) shuts down gracefully. Thread-safe.
 */
public final class Worker implements AutoCloseable {
  private final Redrive redrive;
  private final WorkerConfig config;
  private final Dispatcher dispatcher;
  private final Duration maintenanceInterval;
  private Maintenance maintenance;

  private Worker(Redrive redrive, WorkerConfig config, Duration maintenanceInterval) {
    this.redrive = redrive;
    this.config = config;
    this.dispatcher = new Dispatcher(redrive, config);
    this.maintenanceInterval = maintenanceInterval;
  }

  /** Starts building a worker for {@code queue}. */
  public static Builder builder(Redrive redrive, String queue) {
    return new Builder(redrive, queue);
  }

  /** The id recorded in attempt history and logs. */
  public String id() {
    return config.id();
  }

  /** Starts leasing, and the deadline sweep when the worker opted in to maintenance. */
  public Worker start() {
    dispatcher.start();
    synchronized (this) {
      if (maintenanceInterval != null && maintenance == null) {
        maintenance = Maintenance.builder(redrive).interval(maintenanceInterval).start();
      }
    }
    return this;
  }

  /** Whether this worker runs the {@link Maintenance} service (started and not yet stopped). */
  public synchronized boolean runsMaintenance() {
    return maintenance != null;
  }

  private void stopMaintenance() {
    Maintenance m;
    synchronized (this) {
      m = maintenance;
      maintenance = null;
    }
    if (m != null) {
      m.close();
    }
  }

  /** Runs (or stream runs) in progress. */
  public int inFlight() {
    return dispatcher.inFlight();
  }

  /**
   * Stops leasing, lets running handlers finish up to {@code grace}, gives back the messages it
   * leased but did not start (attempts refunded), and at the deadline interrupts the handlers still
   * running and gives their messages back refunded too.
   *
   * @return true when every handler finished within {@code grace}
   */
  public boolean stop(Duration grace) {
    WorkerConfig.notNegative("grace", grace);
    stopMaintenance();
    return dispatcher.stop(grace);
  }

  /** {@link #stop(Duration)} with the configured {@code shutdownGrace}. */
  @Override
  public void close() {
    stopMaintenance();
    dispatcher.stop(config.shutdownGrace());
  }

  /** Builds a {@link Worker}; not thread-safe. Every setting is validated at {@link #build()}. */
  public static final class Builder {
    private final Redrive redrive;
    private final String queue;
    private final Map<String, HandlerRegistration> handlers = new LinkedHashMap<>();
    private String id;
    private int concurrency = 4;
    private Integer batchSize;
    private Duration leaseTimeout;
    private Duration maxRenewal = Duration.ofHours(1);
    private Duration pollMin = Duration.ofMillis(50);
    private Duration pollMax = Duration.ofSeconds(2);
    private Duration shutdownGrace = Duration.ofSeconds(30);
    private Duration depthInterval = Duration.ofSeconds(15);
    private UnregisteredHandlerBackoff unregisteredBackoff = UnregisteredHandlerBackoff.DEFAULT;
    private FailureClassifier classifier = FailureClassifier.defaults();
    private MeterRegistry meterRegistry = Metrics.globalRegistry;
    private Duration maintenanceInterval;
    private Boolean leaseOnlyHandledTypes;

    private Builder(Redrive redrive, String queue) {
      if (redrive == null) {
        throw new IllegalArgumentException("redrive: is required");
      }
      this.redrive = redrive;
      this.queue = QueueNames.require("queue", queue);
    }

    /** Registers {@code handler} for messages of {@code type}. */
    public Builder handler(String type, Handler handler) {
      return handler(HandlerRegistration.of(type, handler));
    }

    /** Registers a handler with its own timeout or classifier. */
    public Builder handler(HandlerRegistration registration) {
      if (registration == null) {
        throw new IllegalArgumentException("registration: is required");
      }
      if (handlers.putIfAbsent(registration.type(), registration) != null) {
        throw new IllegalArgumentException(
            "handler: type \"" + registration.type() + "\" is already registered");
      }
      return this;
    }

    /** The worker id in history and logs (default: host-pid-random). */
    public Builder id(String value) {
      if (value == null || value.isBlank() || value.length() > 200) {
        throw new IllegalArgumentException("id: must be 1-200 characters, was \"" + value + "\"");
      }
      this.id = value;
      return this;
    }

    /** Handlers (or stream runs) running at once, 1–1000 (default 4). */
    public Builder concurrency(int value) {
      this.concurrency = WorkerConfig.upTo1000("concurrency", value);
      return this;
    }

    /**
     * Most messages per lease call, 1–1000 (default: the concurrency). A call never leases more
     * than there are free slots, so a value above the concurrency changes nothing; several messages
     * of one stream share one slot.
     */
    public Builder batchSize(int value) {
      this.batchSize = WorkerConfig.upTo1000("batchSize", value);
      return this;
    }

    /** Lease length asked for and renewed (default: the queue's {@code leaseTimeout}). */
    public Builder leaseTimeout(Duration value) {
      this.leaseTimeout = QueuePolicy.requireLeaseTimeout(value);
      return this;
    }

    /**
     * The longest one handler run keeps its lease renewed, counted from the handler's start
     * (default 1 h): a handler still running then is treated as hung, its lease is left to expire
     * and the message is delivered again (counted). Stream messages waiting for their turn keep
     * their leases.
     */
    public Builder maxRenewal(Duration value) {
      this.maxRenewal = WorkerConfig.positive("maxRenewal", value);
      return this;
    }

    /** Idle poll interval, growing from {@code min} to {@code max} (default 50 ms to 2 s). */
    public Builder pollInterval(Duration min, Duration max) {
      WorkerConfig.positive("pollInterval.min", min);
      WorkerConfig.positive("pollInterval.max", max);
      if (max.compareTo(min) < 0) {
        throw new IllegalArgumentException(
            "pollInterval.max: must be at least pollInterval.min (" + min + "), was " + max);
      }
      this.pollMin = min;
      this.pollMax = max;
      return this;
    }

    /** How long {@link Worker#close()} lets running handlers finish (default 30 s). */
    public Builder shutdownGrace(Duration value) {
      this.shutdownGrace = WorkerConfig.notNegative("shutdownGrace", value);
      return this;
    }

    /** How often the queue depth gauges are refreshed (default 15 s; zero turns them off). */
    public Builder queueDepthInterval(Duration value) {
      this.depthInterval = WorkerConfig.notNegative("queueDepthInterval", value);
      return this;
    }

    /**
     * Whether this worker's leases name the types it has handlers for, so that it leases only those
     * (default true, for up to 1000 handlers; a worker with more leases every type unless this is
     * set). A type nobody handles then waits, and the engine raises it as unserved (docs/engine.md,
     * "Live workers and unserved types"). False leases every type and gives an unhandled one back
     * with the unregistered-handler backoff; true with more than 1000 handlers is refused.
     */
    public Builder leaseOnlyHandledTypes(boolean value) {
      this.leaseOnlyHandledTypes = value;
      return this;
    }

    /** Backoff for messages of a type this worker does not handle (default 1 s ×2, max 60 s). */
    public Builder unregisteredBackoff(UnregisteredHandlerBackoff value) {
      if (value == null) {
        throw new IllegalArgumentException("unregisteredBackoff: is required");
      }
      this.unregisteredBackoff = value;
      return this;
    }

    /**
     * How thrown exceptions map to failure reasons (default {@link FailureClassifier#defaults()}).
     */
    public Builder classifier(FailureClassifier value) {
      if (value == null) {
        throw new IllegalArgumentException("classifier: is required");
      }
      this.classifier = value;
      return this;
    }

    /** Where metrics go (default Micrometer's global registry). */
    public Builder meterRegistry(MeterRegistry value) {
      if (value == null) {
        throw new IllegalArgumentException("meterRegistry: is required");
      }
      this.meterRegistry = value;
      return this;
    }

    /**
     * Whether this worker also runs the {@link Maintenance} service (the deadline sweep, every 1 s)
     * while it runs (default false). For an embedding application without a server; safe on every
     * worker and node at once.
     */
    public Builder maintenance(boolean value) {
      this.maintenanceInterval = value ? Maintenance.DEFAULT_INTERVAL : null;
      return this;
    }

    /** Runs the {@link Maintenance} service with this interval, 10 ms to 1 h. */
    public Builder maintenance(Duration interval) {
      try {
        this.maintenanceInterval = Maintenance.requireInterval(interval);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("maintenance." + e.getMessage(), e);
      }
      return this;
    }

    public Worker build() {
      if (handlers.isEmpty()) {
        throw new IllegalArgumentException(
            "handlers: register at least one handler for queue \"" + queue + "\"");
      }
      WorkerConfig config =
          new WorkerConfig(
              queue,
              id != null ? id : WorkerConfig.defaultId(),
              Map.copyOf(handlers),
              concurrency,
              batchSize != null ? batchSize : concurrency,
              leaseTimeout,
              maxRenewal,
              pollMin,
              pollMax,
              shutdownGrace,
              depthInterval,
              unregisteredBackoff,
              classifier,
              meterRegistry,
              WorkerConfig.leaseTypes(leaseOnlyHandledTypes, handlers.keySet()));
      return new Worker(redrive, config, maintenanceInterval);
    }
  }
}
