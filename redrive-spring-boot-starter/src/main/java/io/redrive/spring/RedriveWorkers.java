package io.redrive.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.redrive.Redrive;
import io.redrive.maintenance.Maintenance;
import io.redrive.queue.QueueUpdate;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.SmartLifecycle;

/**
 * Runs one {@link Worker} per queue for the {@link RedriveHandler}s the application has, and the
 * {@link Maintenance} service (with its scheduler, which fires recurring schedules), from the end
 * of the context's start until its stop; at that start it first creates the handlers' queues and
 * declares {@code redrive.schedules.*}. A stop lets running handlers finish within the shutdown
 * grace (by default a second less than Spring's {@code
 * spring.lifecycle.timeout-per-shutdown-phase}), all queues' workers at once, and gives back what
 * they leased but did not start.
 */
final class RedriveWorkers implements SmartLifecycle {
  private final Redrive redrive;
  private final HandlerBeans handlers;
  private final RedriveProperties properties;
  private final MeterRegistry meterRegistry;
  private final Duration defaultGrace;
  private final Map<String, Worker> workers = new LinkedHashMap<>();
  private Maintenance maintenance;
  private volatile boolean running;

  /**
   * @param meterRegistry the application's, or null
   * @param defaultGrace the shutdown grace of a queue whose worker sets none
   */
  RedriveWorkers(
      Redrive redrive,
      HandlerBeans handlers,
      RedriveProperties properties,
      MeterRegistry meterRegistry,
      Duration defaultGrace) {
    this.redrive = redrive;
    this.handlers = handlers;
    this.properties = properties;
    this.meterRegistry = meterRegistry;
    this.defaultGrace = defaultGrace;
  }

  @Override
  public synchronized void start() {
    if (running) {
      return;
    }
    for (String queue : handlers.byQueue().keySet()) {
      redrive.declareQueue(queue, QueueUpdate.builder().build()); // created with defaults if new
    }
    // After every queue, which a schedule's target may name; before anything runs.
    ScheduleDeclarations.declare(redrive, properties.getSchedules());
    ObjectiveDeclarations.declare(redrive, properties.getObjectives());
    for (Map.Entry<String, List<HandlerBeans.Found>> e : handlers.byQueue().entrySet()) {
      String queue = e.getKey();
      Worker.Builder b = Worker.builder(redrive, queue).shutdownGrace(grace(queue));
      e.getValue().forEach(f -> b.handler(f.type(), f.handler()));
      properties.workerFor(queue).applyTo(b);
      if (meterRegistry != null) {
        b.meterRegistry(meterRegistry);
      }
      workers.put(queue, b.build().start());
    }
    if (properties.getMaintenance().isEnabled()) {
      maintenance =
          Maintenance.builder(redrive).schedules(properties.getMaintenance().isSchedules()).start();
    }
    running = true;
  }

  private Duration grace(String queue) {
    Duration set = properties.workerFor(queue).getShutdownGrace();
    return set != null ? set : defaultGrace;
  }

  @Override
  public void stop() {
    List<Worker> stopping;
    Maintenance sweeping;
    synchronized (this) {
      stopping = new ArrayList<>(workers.values());
      workers.clear();
      sweeping = maintenance;
      maintenance = null;
      running = false;
    }
    // All queues' workers at once, so the grace is not paid once per queue.
    List<Thread> threads = new ArrayList<>();
    for (Worker w : stopping) {
      Thread t = new Thread(w::close, "redrive-stop-" + w.id());
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (sweeping != null) {
      sweeping.close();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** True when the application has no handlers, so no worker ever runs. */
  boolean expectsNone() {
    return handlers.byQueue().isEmpty();
  }

  /** The workers running now, by queue (the health indicator, tests). */
  synchronized Map<String, Worker> workers() {
    return Map.copyOf(workers);
  }
}
