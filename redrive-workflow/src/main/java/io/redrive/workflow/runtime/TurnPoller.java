package io.redrive.workflow.runtime;

import io.redrive.error.TurnLostException;
import io.redrive.store.ReadySubscription;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.RenewTurnParams;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.WorkflowStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leases due turns while this node has a free turn slot and runs each on the turn pool, renewing
 * its lease every third of the lease timeout and abandoning it past {@code maxTurnDuration}. Sleeps
 * until a wake-up (a store announcement or a slot freed), the next due time, or the poll interval,
 * whichever comes first.
 */
public final class TurnPoller {
  private static final Logger LOG = LoggerFactory.getLogger("io.redrive.workflow.runtime");

  private final WorkflowStore store;
  private final Clock clock;
  private final RuntimeSettings settings;
  private final TurnProcessor processor;
  private final Semaphore slots;
  private final ExecutorService turns;
  private final ScheduledExecutorService renewals;
  private final Object wakeLock = new Object();
  private final AtomicInteger running = new AtomicInteger();
  // Keyed by turn token: a lease's own hashCode would hash its whole history on every turn.
  private final java.util.Map<String, TurnLease> inProgress =
      new java.util.concurrent.ConcurrentHashMap<>();
  private volatile boolean stopping;
  private volatile boolean halted;
  private boolean woken;
  private Thread thread;
  private ReadySubscription subscription;

  public TurnPoller(
      WorkflowStore store, Clock clock, RuntimeSettings settings, TurnProcessor processor) {
    this.store = store;
    this.clock = clock;
    this.settings = settings;
    this.processor = processor;
    this.slots = new Semaphore(settings.orchestrationConcurrency());
    AtomicInteger n = new AtomicInteger();
    this.turns =
        Executors.newFixedThreadPool(
            settings.orchestrationConcurrency(),
            r -> {
              Thread t =
                  new Thread(r, "redrive-wf-turn-" + settings.nodeId() + "-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.renewals =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "redrive-wf-renew-" + settings.nodeId());
              t.setDaemon(true);
              return t;
            });
  }

  public void start() {
    subscription = store.subscribeTurns(this::wake);
    thread = new Thread(this::loop, "redrive-wf-turns-" + settings.nodeId());
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Stops leasing and waits up to {@code grace} for running turns (true if all ended), then lets go
   * of the instances that stick to this node, so that other nodes take their turns at once.
   */
  public boolean stop(Duration grace) {
    if (halted) {
      return false;
    }
    stopping = true;
    wake();
    if (subscription != null) {
      subscription.close();
    }
    try {
      if (thread != null) {
        thread.join(Math.max(1, grace.toMillis()));
      }
      turns.shutdown();
      boolean ended = turns.awaitTermination(Math.max(1, grace.toMillis()), TimeUnit.MILLISECONDS);
      if (!ended) {
        // A graceful stop is not a crash: give the tries of the turns still running back, so
        // shutting nodes down (a deploy) never pushes an instance towards poison.
        inProgress.values().forEach(processor::refund);
        turns.shutdownNow();
      }
      renewals.shutdownNow();
      releaseSticky();
      return ended;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      turns.shutdownNow();
      renewals.shutdownNow();
      return false;
    }
  }

  private void releaseSticky() {
    if (!settings.sticky()) {
      return;
    }
    try {
      store.releaseSticky(settings.nodeId());
    } catch (RuntimeException e) {
      LOG.warn(
          "Node {} could not let go of its instances; others take them after {}: {}",
          settings.nodeId(),
          settings.stickyWait(),
          e.toString());
    }
  }

  /**
   * Test hook: stops as a node that dies does. Turns are cut off (their leases run out), nothing is
   * refunded or let go, and a later {@link #stop} does nothing.
   */
  public void halt() {
    halted = true;
    stopping = true;
    wake();
    if (subscription != null) {
      subscription.close();
    }
    turns.shutdownNow();
    renewals.shutdownNow();
  }

  public int inFlight() {
    return running.get();
  }

  public void wake() {
    synchronized (wakeLock) {
      woken = true;
      wakeLock.notifyAll();
    }
  }

  private void loop() {
    while (!stopping) {
      try {
        if (!slots.tryAcquire()) {
          sleep(settings.pollInterval());
          continue;
        }
        Optional<TurnLease> lease;
        try {
          lease =
              store.leaseTurn(
                  new LeaseTurnParams(
                      settings.nodeId(),
                      settings.turnLeaseTimeout(),
                      settings.maxBatch(),
                      clock.instant(),
                      settings.buildId(),
                      processor.knownHistory(),
                      settings.stickyWait()));
        } catch (RuntimeException e) {
          slots.release();
          LOG.warn("Leasing a turn failed on node {}: {}", settings.nodeId(), e.toString());
          sleep(settings.pollInterval());
          continue;
        }
        if (lease.isPresent()) {
          submit(lease.get());
          continue;
        }
        slots.release();
        sleep(untilDue());
      } catch (RuntimeException e) {
        LOG.warn("Turn poller on node {}: {}", settings.nodeId(), e.toString(), e);
        sleep(settings.pollInterval());
      }
    }
  }

  private Duration untilDue() {
    Duration max = settings.pollInterval();
    try {
      Instant now = clock.instant();
      Optional<Instant> due = store.nextDueAt(now, settings.nodeId(), settings.stickyWait());
      if (due.isEmpty()) {
        return max;
      }
      Duration wait = Duration.between(now, due.get());
      if (wait.isNegative() || wait.isZero()) {
        // Due now but not leasable (held by a live lease elsewhere): don't spin.
        return Duration.ofMillis(Math.min(max.toMillis(), 20));
      }
      return wait.compareTo(max) < 0 ? wait : max;
    } catch (RuntimeException e) {
      return max;
    }
  }

  private void sleep(Duration d) {
    synchronized (wakeLock) {
      if (!woken && !stopping) {
        try {
          wakeLock.wait(Math.max(1, d.toMillis()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          stopping = true;
        }
      }
      woken = false;
    }
  }

  private void submit(TurnLease lease) {
    running.incrementAndGet();
    try {
      turns.execute(() -> runTurn(lease));
    } catch (RuntimeException e) {
      running.decrementAndGet();
      slots.release();
      throw e;
    }
  }

  private void runTurn(TurnLease lease) {
    Instant started = clock.instant();
    long startedNanos = System.nanoTime();
    Thread worker = Thread.currentThread();
    AtomicBoolean done = new AtomicBoolean();
    long period = Math.max(1, settings.turnLeaseTimeout().toMillis() / 3);
    ScheduledFuture<?>[] renewal = new ScheduledFuture<?>[1];
    renewal[0] =
        renewals.scheduleAtFixedRate(
            () -> renew(lease, started, startedNanos, worker, done, renewal[0]),
            period,
            period,
            TimeUnit.MILLISECONDS);
    inProgress.put(lease.token(), lease);
    try {
      processor.process(lease);
    } catch (RuntimeException e) {
      LOG.warn("Turn of instance {} failed: {}", lease.instance().id(), e.toString(), e);
    } finally {
      inProgress.remove(lease.token());
      done.set(true);
      renewal[0].cancel(false);
      Thread.interrupted();
      running.decrementAndGet();
      slots.release();
      wake();
    }
  }

  private void renew(
      TurnLease lease,
      Instant started,
      long startedNanos,
      Thread worker,
      AtomicBoolean done,
      ScheduledFuture<?> self) {
    if (done.get()) {
      return;
    }
    if (System.nanoTime() - startedNanos > settings.maxTurnDuration().toNanos()) {
      if (self != null) {
        self.cancel(false);
      }
      LOG.warn(
          "Turn of instance {} ran longer than {}, abandoning it (TURN_TIMEOUT)",
          lease.instance().id(),
          settings.maxTurnDuration());
      // The lease goes first: code that sees the interrupt as an exception must not commit it.
      processor.abandonTimedOut(lease, started);
      worker.interrupt();
      return;
    }
    try {
      store.renewTurn(
          new RenewTurnParams(
              lease.instance().id(), lease.token(), settings.turnLeaseTimeout(), clock.instant()));
    } catch (TurnLostException e) {
      if (self != null) {
        self.cancel(false);
      }
    } catch (RuntimeException e) {
      LOG.warn("Renewing the turn of instance {} failed: {}", lease.instance().id(), e.toString());
    }
  }
}
