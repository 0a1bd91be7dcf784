package io.redrive.server.http;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.redrive.Redrive;
import io.redrive.error.JdbcUrls;
import io.redrive.queue.CircuitState;
import io.redrive.queue.CircuitStatus;
import io.redrive.queue.Queue;
import io.redrive.queue.QueueStats;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.WorkflowClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's Prometheus meters: {@code redrive_http_requests_seconds} by route, method and
 * status, {@code redrive_queue_depth} by queue and state and {@code redrive_workflow_instances} by
 * status and {@code redrive_circuits} by queue, dependency and state, refreshed every {@link
 * #REFRESH} and before a scrape that finds them older than {@link #STALE}, and the JVM and process
 * binders ({@code jvm_*}, {@code process_*}, {@code system_*}). The engine's message meters share
 * the registry. Thread-safe.
 */
final class ServerMetrics implements AutoCloseable {
  static final Duration REFRESH = Duration.ofSeconds(15);
  static final Duration STALE = Duration.ofSeconds(5);
  private static final Logger log = LoggerFactory.getLogger(ServerMetrics.class);

  private final PrometheusMeterRegistry registry;
  private final MultiGauge depth;
  private final MultiGauge instances;
  private final ObjectiveGauges objectives;
  private final MultiGauge circuits;
  private final Redrive redrive;
  private final WorkflowClient workflows; // null when the store keeps no workflows
  private final ScheduledExecutorService refresher;
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private volatile long refreshedAtNanos = System.nanoTime() - REFRESH.toNanos();

  /**
   * Meters in {@code registry}, which the engine also counts into when it was built with it, so
   * {@code /metrics} shows the engine's message meters too.
   */
  ServerMetrics(Redrive redrive, PrometheusMeterRegistry registry) {
    this.registry = registry;
    this.redrive = redrive;
    this.workflows = WorkflowClient.supports(redrive) ? WorkflowClient.on(redrive) : null;
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    this.depth =
        MultiGauge.builder("redrive.queue.depth")
            .description("messages in the queue by state, refreshed every 15 s")
            .register(registry);
    this.instances =
        MultiGauge.builder("redrive.workflow.instances")
            .description("workflow instances by status, refreshed every 15 s")
            .register(registry);
    this.objectives = new ObjectiveGauges(redrive, registry);
    this.circuits =
        MultiGauge.builder("redrive.circuits")
            .description(
                "circuits of queue dependencies: 1 for the state each is in (CLOSED, OPEN,"
                    + " HALF_OPEN), 0 for the others; refreshed every 15 s")
            .register(registry);
    this.refresher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "redrive-metrics");
              t.setDaemon(true);
              return t;
            });
    refresher.scheduleWithFixedDelay(
        this::refreshDepth, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
  }

  void recordRequest(String route, String method, int status, float millis) {
    Timer.builder("redrive.http.requests")
        .description("HTTP requests by route, method and status")
        .tags("route", route, "method", method, "status", String.valueOf(status))
        .register(registry)
        .record(Duration.ofNanos((long) (millis * 1_000_000L)));
  }

  /** Reads every queue's stats into the depth gauges. */
  synchronized void refreshDepth() {
    refreshedAtNanos = System.nanoTime();
    try {
      List<MultiGauge.Row<?>> rows = new ArrayList<>();
      List<MultiGauge.Row<?>> circuitRows = new ArrayList<>();
      for (Queue q : redrive.listQueues()) {
        if (q.policy().circuit() != null) {
          for (CircuitStatus c : redrive.circuits(q.name())) {
            for (CircuitState state : CircuitState.values()) {
              circuitRows.add(
                  MultiGauge.Row.of(
                      Tags.of(
                          "queue", q.name(), "dependency", c.dependency(), "state", state.name()),
                      c.state() == state ? 1 : 0));
            }
          }
        }
        QueueStats s = redrive.stats(q.name());
        rows.add(row(q.name(), "READY", s.ready()));
        rows.add(row(q.name(), "SCHEDULED", s.scheduled()));
        rows.add(row(q.name(), "LEASED", s.leased() + s.leaseExpired()));
        rows.add(row(q.name(), "DEAD", s.dead()));
      }
      depth.register(rows, true);
      circuits.register(circuitRows, true);
    } catch (RuntimeException e) {
      log.warn("refreshing queue depth gauges failed: {}", JdbcUrls.mask(e.getMessage()));
    }
    objectives.refresh();
    if (workflows != null) {
      try {
        Map<InstanceStatus, Long> counts = workflows.countByStatus();
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        // Every status, zeros included, so a dashboard's series never vanish.
        for (InstanceStatus status : InstanceStatus.values()) {
          rows.add(
              MultiGauge.Row.of(Tags.of("status", status.name()), counts.getOrDefault(status, 0L)));
        }
        instances.register(rows, true);
      } catch (RuntimeException e) {
        log.warn("refreshing workflow instance gauges failed: {}", JdbcUrls.mask(e.getMessage()));
      }
    }
  }

  private static MultiGauge.Row<?> row(String queue, String state, long value) {
    return MultiGauge.Row.of(Tags.of("queue", queue, "state", state), value);
  }

  String scrape() {
    if (System.nanoTime() - refreshedAtNanos > STALE.toNanos()) {
      refreshDepth();
    }
    return registry.scrape();
  }

  /** A registry for the server's {@code /metrics} (Prometheus text format). */
  static PrometheusMeterRegistry newRegistry() {
    return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    gc.close();
    registry.close();
  }
}
