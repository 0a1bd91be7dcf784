package io.redrive.workflow.testkit;

import io.redrive.Redrive;
import io.redrive.queue.QueueStats;
import io.redrive.store.ReadySubscription;
import io.redrive.store.workflow.WorkflowStore;
import io.redrive.test.TestClock;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drives a real {@link WorkflowRuntime} on a clock that moves only when told: waits until the
 * runtime is idle (no turn or activity running, none due now), tells what is due next, and moves
 * the clock there. Shared by the test environment and the failure-point explorer.
 *
 * <p>Implementation notes. The runtime runs on its own threads; "idle" is read from both sides:
 * what runs now (the turns in flight, the activities inside their code, counted by {@link
 * #activityStarted}/{@link #activityEnded}) and what the store holds due now (a turn, a ready or
 * expired activity message, an activity message leased but not yet inside its code). A delivery
 * that {@link #vanished vanished} (its worker died) holds its lease until the clock passes it, so
 * it is neither running nor due until then. Idle is confirmed on a second look, since a turn is
 * leased a moment before it counts as in flight. Waits are woken by turn commits and activity ends
 * and bounded by a short tick, so no test sleeps longer than the runtime needs.
 */
final class RuntimeDriver implements AutoCloseable {
  static final Duration POLL_INTERVAL = Duration.ofMillis(10);
  private static final long TICK_MS = 5;

  private final TestClock clock;
  private final Set<String> activityQueues;
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicLong vanishIds = new AtomicLong();
  private final Map<Long, Instant> vanished = new ConcurrentHashMap<>();
  private final Object signal = new Object();
  private Redrive redrive;
  private WorkflowStore store;
  private WorkflowRuntime runtime;
  private ReadySubscription subscription;

  /** A driver of runtimes on {@code clock} whose activities use {@code queues}. */
  RuntimeDriver(TestClock clock, Set<String> queues) {
    this.clock = clock;
    this.activityQueues = Set.copyOf(queues);
  }

  /**
   * Starts watching {@code runtime}, which runs on {@code redrive} (with this driver's clock) over
   * {@code store}.
   */
  void attach(Redrive redrive, WorkflowStore store, WorkflowRuntime runtime) {
    this.redrive = redrive;
    this.store = store;
    this.runtime = runtime;
    this.subscription = runtime.client().subscribeTurns(this::signal);
  }

  TestClock clock() {
    return clock;
  }

  /** An activity's code begins (called on its thread). */
  void activityStarted() {
    running.incrementAndGet();
  }

  /** An activity's code ended, or stalled as if its worker were gone. */
  void activityEnded() {
    running.decrementAndGet();
    signal();
  }

  /**
   * The delivery running on this thread vanished with its worker at {@code now}: its lease runs out
   * at the latest {@code leaseTimeout} later, which is when the clock must be moved for it to count
   * again. Returns the key to {@link #forget} it by.
   */
  long vanished(Duration leaseTimeout) {
    long id = leaseLeftUntil(clock.instant().plus(leaseTimeout).plusMillis(1));
    activityEnded();
    return id;
  }

  /**
   * A delivery's lease is held by no one alive until {@code expiry} (its worker died, its settle
   * was lost): not running, not due, but the time to move the clock to. Returns its key.
   */
  long leaseLeftUntil(Instant expiry) {
    long id = vanishIds.incrementAndGet();
    vanished.put(id, expiry);
    signal();
    return id;
  }

  void forget(long vanishedId) {
    vanished.remove(vanishedId);
  }

  /**
   * Waits until nothing runs and nothing is due at the clock's instant.
   *
   * @throws IllegalStateException when the runtime is still busy after {@code limit} (wall time)
   */
  void awaitIdle(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    int quiet = 0;
    while (quiet < 2) {
      if (busy()) {
        quiet = 0;
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the workflow runtime was still busy after " + limit + ": " + describeBusy());
        }
      } else {
        quiet++;
      }
      waitTick();
    }
  }

  /** The next instant after now when a turn, activity message or vanished lease comes due. */
  Optional<Instant> nextDue() {
    Instant now = clock.instant();
    Instant next = null;
    Optional<Instant> turn = store.nextDueAt(now, runtime.nodeId(), Duration.ZERO);
    if (turn.isPresent() && turn.get().isAfter(now)) {
      next = turn.get();
    }
    for (String queue : activityQueues) {
      Instant at = redrive.stats(queue).nextScheduledAt();
      if (at != null && at.isAfter(now) && (next == null || at.isBefore(next))) {
        next = at;
      }
    }
    for (Instant expiry : vanished.values()) {
      if (expiry.isAfter(now) && (next == null || expiry.isBefore(next))) {
        next = expiry;
      }
    }
    return Optional.ofNullable(next);
  }

  /**
   * Moves the clock from due time to due time, letting the runtime work at each, until {@code
   * instanceId} ends, nothing is due any more, or the clock has moved {@code horizon}; returns the
   * instance as it is then.
   */
  InstanceInfo runUntilEnded(WorkflowClient client, String instanceId, Duration horizon) {
    Instant until = clock.instant().plus(horizon);
    while (true) {
      awaitIdle(Duration.ofSeconds(30));
      InstanceInfo info = client.get(instanceId).orElseThrow();
      Optional<Instant> next = nextDue();
      if (info.status().terminal() || next.isEmpty() || next.get().isAfter(until)) {
        return info;
      }
      moveTo(next.get());
    }
  }

  /** Moves the clock forward to {@code t} (never back). */
  void moveTo(Instant t) {
    if (t.isAfter(clock.instant())) {
      clock.set(t);
    }
  }

  private boolean busy() {
    if (runtime.turnsInFlight() > 0 || running.get() > 0) {
      return true;
    }
    Instant now = clock.instant();
    Optional<Instant> turn = store.nextDueAt(now, runtime.nodeId(), Duration.ZERO);
    if (turn.isPresent() && !turn.get().isAfter(now)) {
      return true;
    }
    long vanishedHeld = vanished.values().stream().filter(t -> t.isAfter(now)).count();
    long leased = 0;
    for (String queue : activityQueues) {
      QueueStats stats = redrive.stats(queue);
      if (stats.ready() > 0 || stats.leaseExpired() > 0) {
        return true;
      }
      leased += stats.leased();
    }
    // A leased message whose code is not running: just leased, or its result not yet settled.
    return leased > vanishedHeld;
  }

  private String describeBusy() {
    StringBuilder b =
        new StringBuilder("turns in flight ")
            .append(runtime.turnsInFlight())
            .append(", activities running ")
            .append(running.get());
    for (String queue : activityQueues) {
      QueueStats s = redrive.stats(queue);
      b.append(", ")
          .append(queue)
          .append(": ready ")
          .append(s.ready())
          .append(" leased ")
          .append(s.leased())
          .append(" expired ")
          .append(s.leaseExpired());
    }
    return b.toString();
  }

  private void signal() {
    synchronized (signal) {
      signal.notifyAll();
    }
  }

  private void waitTick() {
    synchronized (signal) {
      try {
        signal.wait(TICK_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the workflow runtime worked", e);
      }
    }
  }

  @Override
  public void close() {
    if (subscription != null) {
      subscription.close();
    }
  }
}
