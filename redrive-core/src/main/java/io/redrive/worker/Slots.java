package io.redrive.worker;

import io.redrive.lease.LeaseToken;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.BiConsumer;

/**
 * The worker's slots and what occupies them: the leases it holds (each with its run) until they are
 * settled or given up, and the runs in progress, one per taken slot. The only owner of both: a
 * lease enters with {@link #hold}, leaves with {@link #settled} or {@link #claimFrom}; a run takes
 * a slot with {@link #take} and frees it with {@link #finish}, exactly once.
 *
 * <p>Entered by every thread of the worker (poller, runners, watchdog and heartbeat timers, the
 * settle thread, the stopping thread); no lock of its own: concurrent collections, a semaphore and
 * the run's own finish flag.
 */
final class Slots {
  private final Semaphore free;
  private final Map<HeldLease, Run> held = new ConcurrentHashMap<>();
  private final Set<Run> running = ConcurrentHashMap.newKeySet();
  private final WorkerMetrics metrics;
  private final Wakeup wakeup;

  Slots(int concurrency, WorkerMetrics metrics, Wakeup wakeup) {
    this.free = new Semaphore(concurrency);
    this.metrics = metrics;
    this.wakeup = wakeup;
  }

  /** Slots free now. */
  int free() {
    return free.availablePermits();
  }

  /** Runs in progress (their slots taken); a run whose settle is in flight still counts. */
  int inFlight() {
    return running.size();
  }

  boolean idle() {
    return running.isEmpty();
  }

  /** The runs in progress now. */
  List<Run> running() {
    return List.copyOf(running);
  }

  /** Holds the leases of {@code run} from now until each is settled or given up. */
  void hold(Run run) {
    run.leases.forEach(h -> held.put(h, run));
  }

  /** Takes a slot for {@code run}, waiting for one if none is free. */
  void take(Run run) throws InterruptedException {
    free.acquire();
    metrics.started();
    running.add(run);
  }

  /** Every lease held now, with its run. */
  void forEachHeld(BiConsumer<HeldLease, Run> action) {
    held.forEach(action);
  }

  /** The lease is settled (or left to expire): no longer held, no longer renewed. */
  void settled(HeldLease h) {
    held.remove(h);
  }

  /**
   * Claims the leases of {@code run} from index {@code from} on and stops holding them; returns the
   * tokens of those now ours to give back (the others are being settled by someone else).
   */
  List<LeaseToken> claimFrom(Run run, int from) {
    List<LeaseToken> tokens = new ArrayList<>();
    for (int i = from; i < run.leases.size(); i++) {
      HeldLease r = run.leases.get(i);
      if (r.claim()) {
        tokens.add(r.token);
      }
      held.remove(r);
    }
    return tokens;
  }

  /** Frees the slot of {@code run} and wakes the poller; only the first call does anything. */
  void finish(Run run) {
    if (run.markFinished()) {
      running.remove(run);
      metrics.finished();
      free.release();
      wakeup.signal();
    }
  }
}
