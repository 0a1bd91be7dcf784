package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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
 * <p>Entered by the runners ({@link #settleLater}, {@link #settle}) through the {@link Settler},
 * and by the stopping thread ({@link #close}); the store calls and every callback run on the
 * flusher thread. No lock: a blocking queue hands settles over, and each is answered once (its own
 * flag).
 */
final class SettleBatcher {
  /** The longest a settle waits for others to share its transaction. */
  static final Duration LINGER = Duration.ofMillis(1);

  private static final Logger LOG = WorkerLog.LOG;

  /** Told the outcome of one settle. */
  @FunctionalInterface
  interface Callback {
    /**
     * @param settlement what the settle did or why its lease was lost; null when the store failed
     * @param error the store's failure, or null
     */
    void done(Settlement settlement, RuntimeException error);
  }

  /** A settle handed over. */
  private record Pending(SettleCommand command, Callback callback, AtomicBoolean answered) {
    Pending(SettleCommand command, Callback callback) {
      this(command, callback, new AtomicBoolean());
    }
  }

  private final Redrive redrive;
  private final IntSupplier running;
  private final Runnable afterFlush;
  private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
  private final AtomicInteger pending = new AtomicInteger();
  private final Thread flusher;
  private volatile boolean closed;

  /**
   * @param running how many handler runs of the worker are running: while some are, more settles
   *     are likely on their way
   * @param afterFlush called after each store call (the worker's poller waits on it)
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

  /** Queues a settle; {@code callback} runs on the flusher thread once it is committed. */
  void settleLater(SettleCommand command, Callback callback) {
    if (closed) {
      callback.done(null, new IllegalStateException("the worker has stopped"));
      return;
    }
    Pending p = new Pending(command, callback);
    if (pending.incrementAndGet() == 1 && running.getAsInt() <= 1) {
      // Alone: nothing queued or in flight and no other run that could add a settle to share the
      // transaction with. Committing on this thread saves waking the settle thread, which costs
      // more than a quick handler.
      flushGuarded(List.of(p));
      return;
    }
    queue.add(p);
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
        });
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return answer.get();
        } catch (InterruptedException e) {
          interrupted = true; // finish the settle first: it is already queued
        } catch (ExecutionException e) {
          throw (RuntimeException) e.getCause();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
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
      Pending first;
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
      if (!closed) {
        linger();
      }
      List<Pending> batch = new ArrayList<>();
      batch.add(first);
      queue.drainTo(batch, LeaseRequest.MAX_BATCH - 1);
      flushGuarded(batch);
    }
  }

  private void flushGuarded(List<Pending> batch) {
    try {
      flush(batch);
    } catch (Throwable t) { // the flusher must outlive any one batch, or every later settle waits
      LOG.error("settling {} message(s) failed; their leases will expire", batch.size(), t);
      RuntimeException error = new IllegalStateException("settle failed: " + t, t);
      for (Pending p : batch) {
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

  private void flush(List<Pending> batch) {
    try {
      settle(batch);
    } catch (IllegalArgumentException refused) {
      // One command the engine refuses (say a handler's retryAfter beyond 365 days) refuses the
      // whole call before anything changed: settle each alone, so only that one is not settled.
      for (Pending p : batch) {
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

  private void settle(List<Pending> batch) {
    List<Settlement> settled = redrive.settle(batch.stream().map(Pending::command).toList());
    for (int i = 0; i < batch.size(); i++) {
      answer(batch.get(i), settled.get(i), null);
    }
  }

  private void answer(Pending p, Settlement settlement, RuntimeException error) {
    if (!p.answered.compareAndSet(false, true)) {
      return;
    }
    try {
      p.callback.done(settlement, error);
    } catch (RuntimeException e) {
      LOG.error("settle callback for message {} failed", p.command.messageId(), e);
    } finally {
      pending.decrementAndGet();
    }
  }
}
