package io.redrive.spring;

import io.redrive.Redrive;
import io.redrive.queue.QueueStats;
import io.redrive.worker.Worker;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Redrive's part of the Actuator health ({@code /actuator/health}): UP while the store answers and
 * every handler queue's worker runs; DOWN when the store cannot be reached or a worker stopped
 * while the application runs. Details per handler queue: its worker's id and handlers in flight,
 * and the queue's ready, leased and dead counts and the age of its oldest ready message.
 */
final class RedriveHealthIndicator extends AbstractHealthIndicator {
  private final Redrive redrive;
  private final RedriveWorkers workers;

  RedriveHealthIndicator(Redrive redrive, RedriveWorkers workers) {
    super("Redrive health check failed");
    this.redrive = redrive;
    this.workers = workers;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    redrive.ping(); // throws when the store cannot be reached: DOWN with the error
    boolean running = workers.isRunning();
    Map<String, Object> queues = new LinkedHashMap<>();
    for (Map.Entry<String, Worker> e : workers.workers().entrySet()) {
      QueueStats stats = redrive.stats(e.getKey());
      Map<String, Object> detail = new LinkedHashMap<>();
      detail.put("worker", e.getValue().id());
      detail.put("inFlight", e.getValue().inFlight());
      detail.put("ready", stats.ready());
      detail.put("leased", stats.leased());
      detail.put("dead", stats.dead());
      detail.put(
          "oldestReadyAge",
          stats.oldestReadyAge() == null ? null : stats.oldestReadyAge().toString());
      queues.put(e.getKey(), detail);
    }
    builder.withDetail("store", "reachable").withDetail("workers", running ? "running" : "stopped");
    if (!queues.isEmpty()) {
      builder.withDetail("queues", queues);
    }
    if (running || workers.expectsNone()) {
      builder.up();
    } else {
      builder.down();
    }
  }
}
