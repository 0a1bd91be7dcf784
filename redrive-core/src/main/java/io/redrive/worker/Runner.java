package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one slot's messages: calls the handler of each in order, arms the watchdog for a handler
 * with a timeout, and hands each outcome to the {@link Settler}. When a message does not complete,
 * the rest of a stream run is released (cascade release).
 *
 * <p>{@link #execute} runs on a thread of the handler pool (each takes waiting runs until none is
 * left); {@link #timedOut} on a timer thread; {@link #abort} on the stopping thread. Whoever claims
 * a lease settles it; the watchdog and {@link #abort} claim it, and interrupt the runner, under the
 * lease's monitor, which is also the monitor the runner claims under once its handler returns.
 */
final class Runner {
  private final Redrive redrive;
  private final WorkerConfig config;
  private final WorkerMetrics metrics;
  private final Slots slots;
  private final Settler settler;

  /**
   * Handler threads on their way to take a run, at most. Waking a parked thread costs tens to
   * hundreds of microseconds; handing each run of a batch to a thread of its own woke a hundred
   * threads per batch of 100, most of them to find that a quick handler had long finished.
   */
  private static final int MAX_STARTING = Math.max(2, Runtime.getRuntime().availableProcessors());

  private final Executor handlerThreads;
  private final Queue<Run> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicInteger starting = new AtomicInteger();
  private final ScheduledExecutorService timers;
  private volatile boolean stopping;

  Runner(
      Redrive redrive,
      WorkerConfig config,
      WorkerMetrics metrics,
      Slots slots,
      Settler settler,
      Executor handlerThreads,
      ScheduledExecutorService timers) {
    this.redrive = redrive;
    this.config = config;
    this.metrics = metrics;
    this.slots = slots;
    this.settler = settler;
    this.handlerThreads = handlerThreads;
    this.timers = timers;
  }

  /** Executes {@code run}, whose slot is taken, on a thread of the handler pool. */
  void start(Run run) {
    waiting.add(run);
    wakeAnother();
  }

  /**
   * Starts one more handler thread when runs wait and fewer than {@link #MAX_STARTING} threads are
   * already on their way to take one.
   */
  private void wakeAnother() {
    while (!waiting.isEmpty()) {
      int now = starting.get();
      if (now >= MAX_STARTING) {
        return; // a thread on its way takes a run and wakes the next
      }
      if (starting.compareAndSet(now, now + 1)) {
        try {
          handlerThreads.execute(this::takeRuns);
        } catch (RejectedExecutionException e) {
          // Only once the worker stops: runs left waiting are aborted with the slots they hold.
          starting.decrementAndGet();
        }
        return;
      }
    }
  }

  /**
   * A handler thread's loop: takes waiting runs one after another. Before running one it wakes
   * another thread if more runs wait, so a slow handler never holds up a run behind it; a fast one
   * takes the next run itself before that thread is even up.
   */
  private void takeRuns() {
    starting.decrementAndGet();
    Run run;
    while ((run = waiting.poll()) != null) {
      wakeAnother();
      execute(run);
    }
  }

  /** From now on, a run that has not started a message gives its messages back instead. */
  void stopStarting() {
    stopping = true;
  }

  private void execute(Run run) {
    run.runner = Thread.currentThread();
    boolean settling = false;
    try {
      for (int i = 0; i < run.leases.size(); i++) {
        if (run.finished()) {
          return;
        }
        if (stopping) {
          settler.releaseRest(run, i, "worker " + config.id() + " shutting down before it started");
          return;
        }
        Ran ran = runOne(run, run.leases.get(i), run.leases.size() == 1);
        if (ran == Ran.SETTLING) {
          settling = true; // the settle's answer finishes the run and frees the slot
          return;
        }
        if (ran == Ran.NOT_COMPLETED && i + 1 < run.leases.size()) {
          settler.releaseRest(run, i + 1, "an earlier message of the stream did not complete");
          return;
        }
      }
    } finally {
      if (!settling) {
        slots.finish(run);
      }
      Thread.interrupted(); // a late interrupt must not leak into the pooled thread's next run
    }
  }

  /**
   * Runs one message. A lone message's settle is handed to the group commit without waiting ({@code
   * async}); a stream's messages wait for theirs, since the next one may only run after it.
   */
  private Ran runOne(Run run, HeldLease h, boolean async) {
    LeasedMessage m = h.message;
    HandlerRegistration reg = config.handlers().get(m.type());
    if (reg == null) {
      h.trace = TracedHandler.start(redrive.tracing(), m, config.id());
      settler.unregistered(h);
      return Ran.NOT_COMPLETED;
    }
    metrics.leaseToStart(System.nanoTime() - h.leasedAtNanos);
    HandlerContext context = new HandlerContext(m, config.id(), redrive);
    h.startedAtNanos = System.nanoTime();
    h.started = true;
    run.current = h;
    run.context = context;
    h.trace = TracedHandler.start(redrive.tracing(), m, config.id());
    ScheduledFuture<?> watchdog =
        reg.timeout() == null
            ? null
            : timers.schedule(
                () -> timedOut(run, h, context, reg.timeout()),
                reg.timeout().toNanos(),
                TimeUnit.NANOSECONDS);
    long start = System.nanoTime();
    TracedHandler.Call call = TracedHandler.call(reg.handler(), context, h.trace);
    HandlerResult result = call.result();
    Throwable error = call.error();
    if (watchdog != null) {
      watchdog.cancel(false);
    }
    long took = System.nanoTime() - start;
    synchronized (h) {
      if (!h.claim()) {
        Thread.interrupted();
        metrics.handlerDuration(m.type(), "aborted", took);
        return Ran.NOT_COMPLETED;
      }
    }
    if (error == null && (result == null || result instanceof HandlerResult.Complete)) {
      return settler.complete(run, h, null, took, async);
    }
    if (error == null && result instanceof HandlerResult.CompleteWithResult r) {
      return settler.complete(run, h, r.resultJson(), took, async);
    }
    return settler.fail(run, h, reg, context, result, error, took, async)
        ? Ran.SETTLING
        : Ran.NOT_COMPLETED;
  }

  /** The watchdog: the handler ran past its timeout. */
  private void timedOut(Run run, HeldLease h, HandlerContext context, Duration timeout) {
    synchronized (h) {
      if (!h.claim()) {
        return;
      }
      run.cancel(context);
    }
    settler.timedOut(h, context, timeout);
    settler.releaseRest(run, run.after(h), "an earlier message of the stream timed out");
    // The thread may ignore the interrupt forever; the slot is freed regardless.
    slots.finish(run);
  }

  /**
   * Stops a run still going at the shutdown deadline: its handler is interrupted and its message
   * abandoned (attempt refunded), the messages it has not started are released.
   */
  void abort(Run run) {
    HeldLease h = run.current;
    // Claim the unstarted rest before interrupting: a handler that honours the interrupt returns
    // at once, and its runner would otherwise release them after stop() has returned.
    List<LeaseToken> rest = slots.claimFrom(run, h == null ? 0 : run.after(h));
    if (h != null) {
      boolean mine;
      synchronized (h) {
        mine = h.claim();
        if (mine) {
          run.cancel(run.context);
        }
      }
      if (mine) {
        settler.abandonAtShutdown(h);
      }
    }
    settler.release(rest, "worker shutting down");
    slots.finish(run);
  }
}
