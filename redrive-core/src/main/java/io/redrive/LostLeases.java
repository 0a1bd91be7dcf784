package io.redrive;

import io.redrive.error.CommitUnknownException;
import io.redrive.store.ReleaseUndeliveredParams;
import io.redrive.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Leases whose answer was lost ({@link CommitUnknownException} from the store): the lease may have
 * committed, so its messages may be LEASED with nobody holding the tokens. They are given back at
 * once ({@link Store#releaseUndelivered}); a give-back that fails too (the database is still
 * unreachable) is remembered here and tried again by {@link #retryPending()} on each maintenance
 * sweep. Memory only: if the process dies first, the lease timeout still brings the messages back.
 *
 * <p>At most {@link #MAX_PENDING} batches are remembered; past that the oldest is forgotten with a
 * WARN (its lease timeout applies). Thread-safe.
 */
final class LostLeases {
  static final int MAX_PENDING = 10_000;

  /** One lease call: the queue and its lease batch id. */
  record Batch(String queue, String batch) {}

  private final Store store;
  private final Clock clock;
  private final int maxPending;
  private final Set<Batch> pending = new LinkedHashSet<>();

  LostLeases(Store store, Clock clock) {
    this(store, clock, MAX_PENDING);
  }

  LostLeases(Store store, Clock clock, int maxPending) {
    this.store = store;
    this.clock = clock;
    this.maxPending = maxPending;
  }

  /**
   * Tries to give back the messages of a lease whose answer was lost; on failure remembers the
   * batch and adds the failure to {@code lost} as suppressed, for the caller to rethrow.
   */
  void giveBack(String queue, String batch, CommitUnknownException lost) {
    try {
      release(new Batch(queue, batch));
    } catch (RuntimeException e) {
      lost.addSuppressed(e);
      remember(new Batch(queue, batch));
      EngineLog.LOG.warn(
          "lease answer lost in queue {} (batch {}) and the give-back failed too; retrying it on"
              + " the next maintenance sweep: {}",
          queue,
          batch,
          e.toString());
    }
  }

  /**
   * Gives back every remembered batch, oldest first; returns how many messages came back. Stops at
   * the first failure, keeping it and the rest for the next call, and throws that failure.
   */
  int retryPending() {
    List<Batch> todo;
    synchronized (pending) {
      todo = new ArrayList<>(pending);
    }
    int total = 0;
    for (Batch b : todo) {
      total += release(b);
      synchronized (pending) {
        pending.remove(b);
      }
    }
    return total;
  }

  /** How many batches wait for a give-back. */
  int pending() {
    synchronized (pending) {
      return pending.size();
    }
  }

  private int release(Batch b) {
    List<String> ids =
        store.releaseUndelivered(
            new ReleaseUndeliveredParams(b.queue(), b.batch(), clock.instant()));
    if (!ids.isEmpty()) {
      EngineLog.LOG.info(
          "lease answer lost in queue {}: gave back {} messages with their attempts refunded ({})",
          b.queue(),
          ids.size(),
          ids.size() <= 10 ? String.join(", ", ids) : "batch " + b.batch());
    }
    return ids.size();
  }

  private void remember(Batch b) {
    Batch dropped = null;
    synchronized (pending) {
      if (pending.add(b) && pending.size() > maxPending) {
        Iterator<Batch> oldest = pending.iterator();
        dropped = oldest.next();
        oldest.remove();
      }
    }
    if (dropped != null) {
      EngineLog.LOG.warn(
          "more than {} lost leases wait for a give-back; forgetting batch {} of queue {}: its"
              + " messages come back when their lease times out",
          maxPending,
          dropped.batch(),
          dropped.queue());
    }
  }
}
