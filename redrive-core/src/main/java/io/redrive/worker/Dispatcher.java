package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.store.ReadySubscription;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The machinery behind a {@link Worker}: builds its parts and starts and stops them.
 *
 * <p>The parts, and the threads that run them: the {@link Poller} (its own thread) leases while
 * {@link Slots} are free and hands each run to the {@link Runner} (a cached pool of handler
 * threads; its watchdogs on the timer threads); the {@link Heartbeat} renews held leases (timer
 * thread); the {@link Settler} turns outcomes into settles, handing lone messages' to the {@link
 * SettleBatcher} (its own settle thread). Every lease is settled by exactly one party — runner,
 * watchdog, hung-handler give-up or shutdown — whoever claims it first.
 *
 * <p>{@link #start} and {@link #stop} are called by the application's threads and serialise on this
 * object's monitor.
 */
final class Dispatcher {
  private final Redrive redrive;
  private final WorkerConfig config;
  private final WorkerMetrics metrics;
  private final WorkerLog log;
  private final Wakeup wakeup = new Wakeup();
  private final Slots slots;
  private final SettleBatcher settles;
  private final Settler settler;
  private final Runner runner;
  private final ExecutorService handlerThreads;
  private final ScheduledExecutorService timers;
  private Poller poller;
  private ReadySubscription subscription;

  Dispatcher(Redrive redrive, WorkerConfig config) {
    this.redrive = redrive;
    this.config = config;
    this.metrics = new WorkerMetrics(config.meterRegistry(), config.queue(), config.id());
    this.log = new WorkerLog(config.id());
    this.slots = new Slots(config.concurrency(), metrics, wakeup);
    this.settles =
        new SettleBatcher(
            redrive, slots::inFlight, wakeup::signal, "redrive-completions-" + config.id());
    this.settler = new Settler(redrive, config, metrics, settles, slots, log);
    this.handlerThreads = Executors.newCachedThreadPool(threads("redrive-handler-" + config.id()));
    this.timers = Executors.newScheduledThreadPool(2, threads("redrive-worker-" + config.id()));
    this.runner = new Runner(redrive, config, metrics, slots, settler, handlerThreads, timers);
  }

  synchronized void start() {
    if (poller != null) {
      throw new IllegalStateException("worker " + config.id() + " was already started");
    }
    Duration leaseTimeout =
        config.leaseTimeout() != null
            ? config.leaseTimeout()
            : redrive.getQueue(config.queue()).policy().leaseTimeout();
    settles.start();
    subscription = redrive.subscribeReady(config.queue(), wakeup::signal);
    Heartbeat heartbeat = new Heartbeat(redrive, config, leaseTimeout, slots, settler);
    long renewEvery = Math.max(10, leaseTimeout.toMillis() / 3);
    timers.scheduleWithFixedDelay(
        heartbeat::renewAll, renewEvery, renewEvery, TimeUnit.MILLISECONDS);
    if (!config.depthInterval().isZero()) {
      long every = config.depthInterval().toMillis();
      timers.scheduleWithFixedDelay(this::refreshDepth, 0, every, TimeUnit.MILLISECONDS);
    }
    poller = new Poller(redrive, config, leaseTimeout, slots, runner, wakeup, settles, log);
    poller.start();
    WorkerLog.LOG.info(
        "worker {} started on queue {}: concurrency {}, batch {}, lease {}, types {}",
        config.id(),
        config.queue(),
        config.concurrency(),
        config.batchSize(),
        leaseTimeout,
        config.handlers().keySet());
  }

  int inFlight() {
    return slots.inFlight();
  }

  private void refreshDepth() {
    try {
      metrics.depth(redrive.stats(config.queue()));
    } catch (RuntimeException e) {
      WorkerLog.LOG.debug("queue depth of {} not refreshed: {}", config.queue(), e.toString());
    }
  }

  /** Stops leasing, lets running handlers finish up to {@code grace}, then gives the rest back. */
  boolean stop(Duration grace) {
    synchronized (this) {
      if (poller == null || !poller.leasing()) {
        return true;
      }
      poller.stopLeasing();
    }
    wakeup.signal();
    poller.join(config.pollMax().plusSeconds(5));
    runner.stopStarting();
    long deadline = System.nanoTime() + grace.toNanos();
    while (!slots.idle() && System.nanoTime() < deadline) {
      try {
        wakeup.await(Duration.ofMillis(20));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    boolean clean = slots.idle();
    for (Run run : slots.running()) {
      runner.abort(run);
    }
    timers.shutdownNow();
    // Let runners that are settling right at the deadline finish; a hung one is left behind.
    handlerThreads.shutdown();
    try {
      handlerThreads.awaitTermination(
          Math.min(2_000, Math.max(100, grace.toMillis())), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    handlerThreads.shutdownNow();
    settles.close(Duration.ofSeconds(5));
    if (subscription != null) {
      subscription.close();
    }
    WorkerLog.LOG.info(
        "worker {} stopped{}",
        config.id(),
        clean ? "" : " (handlers were cut off at the deadline)");
    return clean;
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
