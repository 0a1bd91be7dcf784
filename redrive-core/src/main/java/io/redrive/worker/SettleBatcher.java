package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.CompleteAllResult;
import io.redrive.lease.FailAllResult;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.SettleResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Group commit of settles. Runners hand their completion or failure over and go back to the pool;
 * one flusher thread completes everything handed over in one store call, fails the failures in
 * another, and then answers each callback. While a call is in flight the next group gathers, so
 * under load many completions share one transaction, and a runner never parks waiting for its
 * answer. Before a call the flusher lingers up to {@link #LINGER} while more handler runs of the
 * worker are still unfinished than completions are queued, so a batch whose handlers finish
 * together commits together. Alone, a completion is committed at once.
 *
 * <p>Entered by the runners ({@link #completeLater}, {@link #failLater}, {@link #complete}) through
 * the {@link Settler}, and by the stopping thread ({@link #close}); the store calls and every
 * callback run on the flusher thread. No lock: a blocking queue hands settles over, and each is
 * answered once (its own flag).
 */
final class SettleBatcher {
  /** The longest a completion waits for others to share its transaction. */
  static final Duration LINGER = Duration.ofMillis(1);

  private static final Logger LOG = WorkerLog.LOG;

  /** Told the outcome of one completion: completed, or lease lost, or the store failed. */
  @FunctionalInterface
  interface Callback {
    /**
     * @param completed true when completed, false when the lease was lost
     * @param error the store's failure (then {@code completed} is false), or null
     */
    void done(boolean completed, RuntimeException error);
  }

  /** Told the outcome of one failure. */
  @FunctionalInterface
  interface FailCallback {
    /**
     * @param result the failure's result, or null when the lease was lost (or the store failed)
     * @param error the store's failure, or null
     */
    void done(SettleResult result, RuntimeException error);
  }

  /** A completion ({@code fail} null) or a failure handed over. */
  private record Pending(
      String token,
      String id,
      Callback callback,
      FailRequest fail,
      FailCallback failCallback,
      AtomicBoolean answered) {
    Pending(String token, String id, Callback callback, FailRequest fail, FailCallback onFail) {
      this(token, id, callback, fail, onFail, new AtomicBoolean());
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
   * @param running how many handler runs of the worker are running: while some are, more
   *     completions are likely on their way
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

  /** Queues a completion; {@code callback} runs on the flusher thread once it is committed. */
  void completeLater(String token, String id, Callback callback) {
    if (closed) {
      callback.done(false, new IllegalStateException("the worker has stopped"));
      return;
    }
    pending.incrementAndGet();
    queue.add(new Pending(token, id, callback, null, null));
  }

  /** Queues a failure; {@code callback} runs on the flusher thread once it is committed. */
  void failLater(FailRequest request, String id, FailCallback callback) {
    if (closed) {
      callback.done(null, new IllegalStateException("the worker has stopped"));
      return;
    }
    pending.incrementAndGet();
    queue.add(new Pending(request.token(), id, null, request, callback));
  }

  /** Completions handed over and not yet answered. */
  int pending() {
    return pending.get();
  }

  /**
   * Completes the lease and waits for the answer; true when completed, false when the lease was
   * lost.
   *
   * @throws RuntimeException when the store failed (the lease then expires and is redelivered)
   */
  boolean complete(String token, String id) {
    CompletableFuture<Boolean> answer = new CompletableFuture<>();
    completeLater(
        token,
        id,
        (completed, error) -> {
          if (error != null) {
            answer.completeExceptionally(error);
          } else {
            answer.complete(completed);
          }
        });
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return answer.get();
        } catch (InterruptedException e) {
          interrupted = true; // finish the completion first: it is already queued
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

  /** Commits what is queued, then stops the flusher; later completions are not accepted. */
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
      try {
        flush(batch);
      } catch (Throwable t) { // the flusher must outlive any one batch, or every later settle waits
        LOG.error("settling {} message(s) failed; their leases will expire", batch.size(), t);
        RuntimeException error = new IllegalStateException("settle failed: " + t, t);
        for (Pending p : batch) {
          if (p.fail == null) {
            answer(p, false, error);
          } else {
            answerFail(p, null, error);
          }
        }
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
    List<Pending> completions = new ArrayList<>();
    List<Pending> failures = new ArrayList<>();
    for (Pending p : batch) {
      (p.fail == null ? completions : failures).add(p);
    }
    if (!completions.isEmpty()) {
      completeAll(completions);
    }
    if (!failures.isEmpty()) {
      failAll(failures);
    }
    afterFlush.run();
  }

  private void completeAll(List<Pending> batch) {
    Set<String> completed;
    try {
      CompleteAllResult result = redrive.completeAll(batch.stream().map(Pending::token).toList());
      completed = new HashSet<>(result.completed());
    } catch (RuntimeException e) {
      batch.forEach(b -> answer(b, false, e));
      return;
    }
    for (Pending b : batch) {
      answer(b, completed.contains(b.id), null);
    }
  }

  private void failAll(List<Pending> batch) {
    Map<String, SettleResult> failed = new HashMap<>();
    try {
      FailAllResult result = redrive.failAll(batch.stream().map(Pending::fail).toList());
      result.failed().forEach(r -> failed.put(r.messageId(), r));
    } catch (RuntimeException e) {
      batch.forEach(b -> answerFail(b, null, e));
      return;
    }
    for (Pending b : batch) {
      answerFail(b, failed.get(b.id), null);
    }
  }

  private void answerFail(Pending p, SettleResult result, RuntimeException error) {
    if (!p.answered.compareAndSet(false, true)) {
      return;
    }
    try {
      p.failCallback.done(result, error);
    } catch (RuntimeException e) {
      LOG.error("failure callback for message {} failed", p.id, e);
    } finally {
      pending.decrementAndGet();
    }
  }

  private void answer(Pending p, boolean completed, RuntimeException error) {
    if (!p.answered.compareAndSet(false, true)) {
      return;
    }
    try {
      p.callback.done(completed, error);
    } catch (RuntimeException e) {
      LOG.error("completion callback for message {} failed", p.id, e);
    } finally {
      pending.decrementAndGet();
    }
  }
}
