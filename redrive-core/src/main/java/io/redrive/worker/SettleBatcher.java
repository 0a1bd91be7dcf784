package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.error.CommitUnknownException;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettledThenLeased;
import io.redrive.lease.Settlement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import org.slf4j.Logger;

/**
 * Group commit of settles. Runners hand their settle command over and go back to the pool; one
 * flusher thread settles everything handed over in one store call ({@link Redrive#settle}: one
 * transaction for completions and failures alike) and then answers each callback. While a call is
 * in flight the next group gathers, so under load many settles share one transaction, and a runner
 * never parks waiting for its answer. A settle with nothing to share its transaction with (no other
 * settle pending, no other run in flight) is committed by its runner itself. Before a call the
 * flusher lingers up to {@link #LINGER} while more handler runs of the worker are still unfinished
 * than settles are queued, so a batch whose handlers finish together commits together. Alone, a
 * settle is committed at once.
 *
 * <p>Under a backlog the poller carries the settles instead ({@link #carry}): it takes those queued
 * when it leases and commits them in its lease's transaction ({@link #settleThenLease}), so a batch
 * costs one commit instead of two. The settle thread then leaves queued settles alone for up to
 * {@link #CARRY_WAIT}, and commits them itself should the poller not come for them (a slow lease, a
 * linger for a fuller batch).
 *
 * <p>Entered by the runners ({@link #settleLater}, {@link #settle}) through the {@link Settler},
 * and by the stopping thread ({@link #close}); the store calls and every callback run on the
 * flusher thread. No lock: a blocking queue hands settles over, and each is answered once (its own
 * flag).
 */
final class SettleBatcher {
  /** The longest a settle waits for others to share its transaction. */
  static final Duration LINGER = Duration.ofMillis(1);

  /** The longest a queued settle waits for the poller to carry it into its lease. */
  static final Duration CARRY_WAIT = Duration.ofMillis(20);

  private static final Logger LOG = WorkerLog.LOG;

  private final Redrive redrive;
  private final IntSupplier running;
  private final Runnable afterFlush;
  private final LinkedBlockingDeque<PendingSettle> queue = new LinkedBlockingDeque<>();
  private final AtomicInteger pending = new AtomicInteger();
  private final Thread flusher;
  private volatile boolean closed;
  private volatile boolean carried;

  /**
   * @param running how many handler runs of the worker are running: while some are, more settles
   *     are likely on their way
   * @param afterFlush called after each store call and, while the poller carries settles, when one
   *     is queued (the worker's poller waits on it)
   */
  SettleBatcher(Redrive redrive, IntSupplier running, Runnable afterFlush, String name) {
    this.redrive = redrive;
    this.running = running;
    this.afterFlush = afterFlush;
    this.flusher = new Thread(this::flushLoop, name);
    flusher.setDaemon(true);
  }

  /** Starts the settle thread with the worker; a second call does nothing. */
  synchronized void start() {
    if (flusher.getState() == Thread.State.NEW) {
      flusher.start();
    }
  }

  /**
   * Queues the settle of a lone message, whose answer frees its run's slot; {@code callback} runs
   * once it is committed, on the thread that committed it.
   */
  void settleLater(SettleCommand command, PendingSettle.Callback callback) {
    settleLater(command, callback, true);
  }

  private void settleLater(
      SettleCommand command, PendingSettle.Callback callback, boolean freesSlot) {
    if (closed) {
      callback.done(null, new IllegalStateException("the worker has stopped"));
      return;
    }
    PendingSettle p = new PendingSettle(command, callback, freesSlot);
    if (pending.incrementAndGet() == 1 && running.getAsInt() <= 1) {
      // Alone: nothing queued or in flight and no other run that could add a settle to share the
      // transaction with. Committing on this thread saves waking the settle thread, which costs
      // more than a quick handler.
      flushGuarded(List.of(p));
      return;
    }
    queue.add(p);
    if (carried) {
      afterFlush.run(); // the poller may be waiting for slots this settle frees
    }
  }

  /**
   * Whether the poller carries queued settles into its leases (under a backlog) or leaves them to
   * the settle thread, which then commits them at once.
   */
  void carry(boolean on) {
    if (carried != on) {
      carried = on;
      if (!on) {
        LockSupport.unpark(flusher);
      }
    }
  }

  /** Queued settles (not yet taken for a commit) whose answer frees a slot. */
  int queuedFreeing() {
    return PendingSettle.freeing(queue);
  }

  /**
   * On the poller's thread: takes the settles queued now and commits them with a lease in one
   * transaction ({@link Redrive#settleThenLease}), answering each; returns the lease's result, or
   * null when none was queued (then nothing happened). {@code request} is given how many slots the
   * taken settles free and answers the lease to make, or null for none (the settles are then
   * committed alone). When the call fails before any commit, the settles are committed alone and
   * the failure is thrown.
   */
  LeaseResult settleThenLease(IntFunction<LeaseRequest> request) {
    List<PendingSettle> batch = new ArrayList<>();
    queue.drainTo(batch, LeaseRequest.MAX_BATCH);
    if (batch.isEmpty()) {
      return null;
    }
    LeaseRequest lease = request.apply(PendingSettle.freeing(batch));
    if (lease == null) {
      flushGuarded(batch);
      return new LeaseResult(List.of(), List.of(), List.of());
    }
    SettledThenLeased done;
    try {
      done = redrive.settleThenLease(batch.stream().map(p -> p.command).toList(), lease);
    } catch (CommitUnknownException e) {
      // It may have committed: the leases were given back, and the settles are left to expire if
      // it did not (answered as failed, as any settle whose commit is unknown)
      batch.forEach(p -> answer(p, null, e));
      afterFlush.run();
      throw e;
    } catch (IllegalArgumentException refused) { // a settle refused: settled each alone below
      flushGuarded(batch);
      return redrive.lease(lease);
    } catch (RuntimeException e) {
      flushGuarded(batch); // nothing committed: the settles must not wait on a lease that failed
      throw e;
    }
    for (int i = 0; i < batch.size(); i++) {
      answer(batch.get(i), done.settlements().get(i), null);
    }
    afterFlush.run();
    return done.lease();
  }

  /** Settles handed over and not yet answered. */
  int pending() {
    return pending.get();
  }

  /**
   * Settles and waits for the answer: what the settle did, or why its lease was lost.
   *
   * @throws RuntimeException when the store failed (the lease then expires and is redelivered)
   */
  Settlement settle(SettleCommand command) {
    CompletableFuture<Settlement> answer = new CompletableFuture<>();
    settleLater(
        command,
        (settlement, error) -> {
          if (error != null) {
            answer.completeExceptionally(error);
          } else {
            answer.complete(settlement);
          }
        },
        false);
    try {
      return answer.join(); // not interruptible: the settle is queued, so wait for it (flag kept)
    } catch (CompletionException e) {
      throw (RuntimeException) e.getCause();
    }
  }

  /** Commits what is queued, then stops the flusher; later settles are not accepted. */
  void close(Duration max) {
    closed = true;
    flusher.interrupt();
    try {
      flusher.join(max.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void flushLoop() {
    while (true) {
      PendingSettle first;
      try {
        first = closed ? queue.poll() : queue.poll(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        first = queue.poll(); // closing: drain what is left, then stop
      }
      if (first == null) {
        if (closed) {
          return;
        }
        continue;
      }
      long waited = System.nanoTime() - first.queuedAt;
      if (carried && !closed && waited < CARRY_WAIT.toNanos()) {
        queue.addFirst(first); // the poller's next lease takes it; unparked should it stop carrying
        LockSupport.parkNanos(CARRY_WAIT.toNanos() - waited);
        continue;
      }
      if (!closed) {
        linger();
      }
      List<PendingSettle> batch = new ArrayList<>();
      batch.add(first);
      queue.drainTo(batch, LeaseRequest.MAX_BATCH - 1);
      flushGuarded(batch);
    }
  }

  private void flushGuarded(List<PendingSettle> batch) {
    try {
      flush(batch);
    } catch (Throwable t) { // the flusher must outlive any one batch, or every later settle waits
      LOG.error("settling {} message(s) failed; their leases will expire", batch.size(), t);
      RuntimeException error = new IllegalStateException("settle failed: " + t, t);
      for (PendingSettle p : batch) {
        answer(p, null, error);
      }
    }
  }

  private void linger() {
    long deadline = System.nanoTime() + LINGER.toNanos();
    // Runs whose settle is already handed over count in both; only the others can still add one.
    while (running.getAsInt() > pending.get()
        && queue.size() + 1 < LeaseRequest.MAX_BATCH
        && System.nanoTime() < deadline
        && !closed) {
      LockSupport.parkNanos(50_000);
    }
  }

  private void flush(List<PendingSettle> batch) {
    try {
      settle(batch);
    } catch (IllegalArgumentException refused) {
      // One command the engine refuses (say a handler's retryAfter beyond 365 days) refuses the
      // whole call before anything changed: settle each alone, so only that one is not settled.
      for (PendingSettle p : batch) {
        try {
          settle(List.of(p));
        } catch (RuntimeException e) {
          answer(p, null, e);
        }
      }
    } catch (RuntimeException e) {
      batch.forEach(p -> answer(p, null, e));
    }
    afterFlush.run();
  }

  private void settle(List<PendingSettle> batch) {
    List<Settlement> settled = redrive.settle(batch.stream().map(p -> p.command).toList());
    for (int i = 0; i < batch.size(); i++) {
      answer(batch.get(i), settled.get(i), null);
    }
  }

  private void answer(PendingSettle p, Settlement settlement, RuntimeException error) {
    if (p.answer(settlement, error)) {
      pending.decrementAndGet();
    }
  }
}
