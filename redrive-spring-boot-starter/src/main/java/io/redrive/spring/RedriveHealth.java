package io.redrive.spring;

import io.redrive.Redrive;
import io.redrive.queue.QueueStats;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What Redrive's Actuator health says, apart from the Actuator types (which moved between Spring
 * Boot 3 and 4, so each line has its own small indicator around this): UP while the store answers
 * and every handler queue's worker runs, DOWN when a worker stopped while the application runs.
 * Every check pings the store; the per-queue details come from the queues' stats, which scan each
 * queue, so they are read at most once per {@code detailsInterval} and shown with their age.
 */
final class RedriveHealth {
  private final Redrive redrive;
  private final RedriveWorkers workers;
  private final String migrations;
  private final long detailsIntervalNanos;
  private final LongSupplier nanoTime;
  private Map<String, Object> queues;
  private long queuesReadAt;

  /** What one check found: whether it is UP, and the details to show. */
  record Report(boolean up, Map<String, Object> details) {}

  RedriveHealth(
      Redrive redrive,
      RedriveWorkers workers,
      RedriveProperties.Migrations migrations,
      Duration detailsInterval,
      LongSupplier nanoTime) {
    this.redrive = redrive;
    this.workers = workers;
    this.migrations =
        migrations == RedriveProperties.Migrations.VALIDATE
            ? "current at start (validated)"
            : "current at start (applied)";
    this.detailsIntervalNanos = detailsInterval.toNanos();
    this.nanoTime = nanoTime;
  }

  /**
   * Pings the store and reports.
   *
   * @throws RuntimeException when the store cannot be reached (the indicators report DOWN with it)
   */
  synchronized Report check() {
    redrive.ping();
    boolean running = workers.isRunning();
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("store", "reachable");
    details.put("migrations", migrations);
    details.put("workers", running ? "running" : "stopped");
    if (!workers.workers().isEmpty()) {
      long now = nanoTime.getAsLong();
      if (queues == null || now - queuesReadAt >= detailsIntervalNanos) {
        queues = readQueues();
        queuesReadAt = now;
      }
      details.put("queues", queues);
      details.put("queuesReadAgo", Duration.ofNanos(now - queuesReadAt).toString());
    }
    return new Report(running || workers.expectsNone(), details);
  }

  private Map<String, Object> readQueues() {
    Map<String, Object> out = new LinkedHashMap<>();
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
      out.put(e.getKey(), detail);
    }
    return out;
  }
}
