package io.redrive.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.redrive.Redrive;
import io.redrive.maintenance.Maintenance;
import io.redrive.opentelemetry.RedriveTracing;
import io.redrive.server.auth.Authorizer;
import io.redrive.server.config.ObjectiveDeclarations;
import io.redrive.server.config.QueueDeclarations;
import io.redrive.server.config.ScheduleDeclarations;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.http.HttpApi;
import io.redrive.store.Store;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Redrive server: the engine over the store of a {@link ServerConfig}, served as the HTTP
 * JSON API of docs/api.md, with the {@link Maintenance} service (the deadline sweep) running every
 * {@code maintenanceInterval}. Start with {@link #start}; {@link #stop()} is graceful and
 * idempotent. Thread-safe.
 *
 * <p>Without API keys ({@code !authorizer.enabled()}) the server refuses to bind to anything but a
 * loopback address, so an unauthenticated API is never reachable from the network.
 */
public final class RedriveServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedriveServer.class);

  private final Redrive redrive;
  private final HttpApi api;
  private final Maintenance maintenance;
  private final Store store;
  private final boolean ownsStore;
  private final String host;
  private final QueueDeclarations.Summary declared;
  private final WorkflowRuntime workflows;
  private final Object lock = new Object();
  private boolean stopped;
  private Thread shutdownHook;

  private RedriveServer(
      Redrive redrive,
      Store store,
      HttpApi api,
      Maintenance maintenance,
      boolean ownsStore,
      String host,
      QueueDeclarations.Summary declared,
      WorkflowRuntime workflows) {
    this.declared = declared;
    this.workflows = workflows;
    this.redrive = redrive;
    this.api = api;
    this.maintenance = maintenance;
    this.store = store;
    this.ownsStore = ownsStore;
    this.host = host;
  }

  /**
   * Opens the configured store (SQLite in the data directory, or PostgreSQL) and starts serving.
   * The store is closed by {@link #stop()}.
   *
   * @throws IllegalArgumentException when the config is invalid, or binds to a non-loopback address
   *     without API keys
   * @throws PortInUseException when the port is taken
   */
  public static RedriveServer start(ServerConfig config, Authorizer authorizer) {
    return start(config, authorizer, (Function<Redrive, WorkflowRuntime>) null);
  }

  /**
   * Opens the configured store and starts serving, as {@link #start(ServerConfig, Authorizer)},
   * with a workflow runtime in the server built by {@code workflows} (null for none), as {@link
   * #start(ServerConfig, Authorizer, Store, Function)} describes.
   */
  public static RedriveServer start(
      ServerConfig config, Authorizer authorizer, Function<Redrive, WorkflowRuntime> workflows) {
    checkConfig(config, authorizer);
    if (config.port() != 0) {
      HttpApi.requireFreePort(config.bind(), config.port()); // before touching the store
    }
    Store store = config.store().open();
    try {
      return start(config, authorizer, store, true, factory(workflows));
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * Starts serving over an existing store, which {@link #stop()} leaves open; {@code
   * config.store()} is ignored.
   */
  public static RedriveServer start(ServerConfig config, Authorizer authorizer, Store store) {
    return start(config, authorizer, store, (Function<Redrive, WorkflowRuntime>) null);
  }

  /**
   * Opens the configured store and starts serving, as {@link #start(ServerConfig, Authorizer)},
   * with a workflow runtime in the server running {@code registry}'s code, configured by {@code
   * config.workflows()}, its meters on the server's {@code /metrics}. A registry without activities
   * runs turns only: activity messages are left to other workers.
   */
  public static RedriveServer start(
      ServerConfig config, Authorizer authorizer, WorkflowRegistry registry) {
    checkConfig(config, authorizer);
    if (registry == null) {
      throw new IllegalArgumentException("registry: is required");
    }
    if (config.port() != 0) {
      HttpApi.requireFreePort(config.bind(), config.port()); // before touching the store
    }
    Store store = config.store().open();
    try {
      return start(config, authorizer, store, true, runtime(config, registry));
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * Starts serving over an existing store, as {@link #start(ServerConfig, Authorizer, Store)}, with
   * a workflow runtime as {@link #start(ServerConfig, Authorizer, WorkflowRegistry)} runs it.
   */
  public static RedriveServer start(
      ServerConfig config, Authorizer authorizer, Store store, WorkflowRegistry registry) {
    checkConfig(config, authorizer);
    if (store == null || registry == null) {
      throw new IllegalArgumentException("store and registry: are required");
    }
    return start(config, authorizer, store, false, runtime(config, registry));
  }

  private static RuntimeFactory runtime(ServerConfig config, WorkflowRegistry registry) {
    return (redrive, meters) -> {
      WorkflowRuntime.Builder b =
          config.workflows().applyTo(WorkflowRuntime.builder(redrive, registry));
      if (registry.activityNames().isEmpty()) {
        b.roles(WorkflowRuntime.Role.ORCHESTRATIONS);
      }
      return b.meterRegistry(meters).build();
    };
  }

  /** Builds the server's workflow runtime (not started) on its engine and meter registry. */
  private interface RuntimeFactory {
    WorkflowRuntime build(Redrive redrive, MeterRegistry meters);
  }

  /**
   * Starts serving over an existing store, as {@link #start(ServerConfig, Authorizer, Store)}, and
   * runs a workflow runtime in the server: {@code workflows} builds it (not started) on the
   * server's engine, e.g. {@code redrive -> WorkflowRuntime.builder(redrive, registry).build()}.
   * The server starts it once it listens and stops it (with its grace) before it stops serving. The
   * workflow endpoints are served with or without a runtime.
   */
  public static RedriveServer start(
      ServerConfig config,
      Authorizer authorizer,
      Store store,
      Function<Redrive, WorkflowRuntime> workflows) {
    checkConfig(config, authorizer);
    if (store == null) {
      throw new IllegalArgumentException("store: is required");
    }
    return start(config, authorizer, store, false, factory(workflows));
  }

  private static RuntimeFactory factory(Function<Redrive, WorkflowRuntime> workflows) {
    return workflows == null ? null : (redrive, meters) -> workflows.apply(redrive);
  }

  private static RedriveServer start(
      ServerConfig config,
      Authorizer authorizer,
      Store store,
      boolean ownsStore,
      RuntimeFactory runtimeFactory) {
    // One registry for the engine's message meters and the server's own, scraped at /metrics.
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Redrive redrive =
        Redrive.builder(store)
            .maxPayloadBytes(config.maxPayloadBytes())
            .completionWindow(config.completionWindow())
            .completedRetention(config.completedRetention())
            .unservedAfter(config.unservedAfter())
            .meterRegistry(registry)
            // Traces only when the application or the Java agent set up GlobalOpenTelemetry.
            .tracing(RedriveTracing.global())
            .build();
    // Before listening, so no request ever sees a declared queue missing or half-configured.
    QueueDeclarations.Summary declared = QueueDeclarations.apply(redrive, config);
    if (!config.queues().isEmpty()) {
      log.info("{}", declared);
    }
    String schedules = ScheduleDeclarations.apply(redrive, config);
    if (schedules != null) {
      log.info("{}", schedules);
    }
    String objectives = ObjectiveDeclarations.apply(redrive, config);
    if (objectives != null) {
      log.info("{}", objectives);
    }
    HttpApi api = HttpApi.start(redrive, authorizer, config, registry);
    // Every node runs the deadline sweep: it is safe on many nodes and needs no leader.
    Maintenance maintenance =
        Maintenance.builder(redrive).interval(config.maintenanceInterval()).start();
    WorkflowRuntime runtime = null;
    if (runtimeFactory != null) {
      try {
        runtime = runtimeFactory.build(redrive, registry).start();
        for (String line : WorkflowStartLog.lines(runtime.node())) {
          log.info("{}", line);
        }
      } catch (RuntimeException e) {
        api.stop();
        maintenance.close();
        throw e;
      }
    }
    RedriveServer server =
        new RedriveServer(
            redrive, store, api, maintenance, ownsStore, config.bind(), declared, runtime);
    log.info(
        "Redrive server listening on {} ({}, authentication {})",
        server.baseUrl(),
        store.getClass().getSimpleName(),
        authorizer.enabled() ? "on" : "off: loopback only");
    return server;
  }

  /** What applying the declared queues did at start (created, updated, unchanged). */
  public QueueDeclarations.Summary declared() {
    return declared;
  }

  private static void checkConfig(ServerConfig config, Authorizer authorizer) {
    if (config == null) {
      throw new IllegalArgumentException("config: is required");
    }
    if (authorizer == null) {
      throw new IllegalArgumentException("authorizer: is required");
    }
    if (config.port() < 0 || config.port() > 65_535) {
      throw new IllegalArgumentException("port: must be between 0 and 65535, was " + config.port());
    }
    if (config.maxRequestBytes() < 1024) {
      throw new IllegalArgumentException(
          "maxRequestBytes: must be at least 1024, was " + config.maxRequestBytes());
    }
    if (config.maxLeaseWait() == null
        || config.maxLeaseWait().isNegative()
        || config.maxLeaseWait().toMinutes() > 10) {
      throw new IllegalArgumentException(
          "maxLeaseWait: must be between 0s and 10m, was " + config.maxLeaseWait());
    }
    try {
      Maintenance.requireInterval(config.maintenanceInterval());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("maintenanceInterval: " + e.getMessage(), e);
    }
    if (config.bind() == null || config.bind().isBlank()) {
      throw new IllegalArgumentException("bind: is required");
    }
    if (!authorizer.enabled() && !isLoopback(config.bind())) {
      throw new IllegalArgumentException(
          "bind: refusing to serve on \""
              + config.bind()
              + "\" without API keys; configure keys or bind to a loopback address such as"
              + " 127.0.0.1");
    }
  }

  private static boolean isLoopback(String bind) {
    try {
      for (InetAddress a : InetAddress.getAllByName(bind)) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("bind: unknown host \"" + bind + "\"", e);
    }
  }

  /** The port the server listens on (the real one when started with port 0). */
  public int port() {
    return api.port();
  }

  /** {@code http://host:port}, e.g. {@code http://127.0.0.1:7070}. */
  public String baseUrl() {
    String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    if (h.equals("0.0.0.0") || h.equals("[::]")) {
      h = "127.0.0.1";
    }
    return "http://" + h + ":" + port();
  }

  /** The workflow runtime the server runs, or null when it was started without one. */
  public WorkflowRuntime workflowRuntime() {
    return workflows;
  }

  /** The engine the server runs. */
  public Redrive redrive() {
    return redrive;
  }

  /** Every route the server serves as {@code METHOD path}. */
  public java.util.List<String> routes() {
    return api.routes();
  }

  /**
   * Stops the server when the JVM shuts down (SIGTERM, SIGINT, {@code System.exit}), gracefully as
   * {@link #stop()}. Returns this server.
   */
  public RedriveServer stopOnShutdown() {
    synchronized (lock) {
      if (shutdownHook == null && !stopped) {
        shutdownHook = new Thread(this::stopQuietly, "redrive-server-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
      }
    }
    return this;
  }

  /**
   * Stops gracefully: waiting lease calls return at once (empty), requests in flight finish (within
   * {@link HttpApi#STOP_TIMEOUT}), then the store is closed if this server opened it. Idempotent.
   */
  public void stop() {
    Thread hook;
    synchronized (lock) {
      if (stopped) {
        return;
      }
      stopped = true;
      hook = shutdownHook;
    }
    if (hook != null && Thread.currentThread() != hook) {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down already
      }
    }
    if (workflows != null) {
      workflows.close(); // turns and activities end or are given back while the store is open
    }
    api.stop();
    maintenance.close();
    if (ownsStore) {
      store.close();
    }
    log.info("Redrive server stopped");
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (RuntimeException e) {
      log.warn("stopping the server on shutdown failed", e);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
