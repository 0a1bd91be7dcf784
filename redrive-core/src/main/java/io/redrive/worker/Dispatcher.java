package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.failure.StackTraces;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleResult;
import io.redrive.message.MessageState;
import io.redrive.store.ReadySubscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The machinery behind a {@link Worker}.
 *
 * <p>Implementation notes. One poller thread leases batches as long as slots are free (a slot is
 * one running handler, or one stream run) and sleeps between empty polls with a growing interval
 * that a ready signal (in-process enqueue, PostgreSQL NOTIFY) or a freed slot cuts short. Each
 * batch is split into runs: every non-stream message alone, the messages of one stream together in
 * order. Runs execute on threads of a cached pool. A heartbeat renews every held lease each {@code
 * leaseTimeout/3} until the lease is settled or has been held for {@code maxRenewal}, after which a
 * hung handler's lease is left to expire. A watchdog fails a handler past its timeout as
 * TIMEOUT_EXCEEDED, interrupts it and frees its slot even if the thread never returns. Every lease
 * is settled by exactly one party — runner, watchdog or shutdown — whoever claims it first.
 */
final class Dispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  /** How long the poller may hold free slots back to lease a fuller batch. */
  private static final Duration PARTIAL_BATCH_LINGER = Duration.ofMillis(10);

  private final Redrive redrive;
  private final WorkerConfig config;
  private final WorkerMetrics metrics;
  private final SettleBatcher settles;
  private final Semaphore slots;
  private final Wakeup wakeup = new Wakeup();
  private final Set<HeldLease> held = ConcurrentHashMap.newKeySet();
  private final Set<Run> running = ConcurrentHashMap.newKeySet();
  private final ExecutorService runners;
  private final ScheduledExecutorService timers;
  private volatile boolean leasing;
  private volatile boolean stopping;
  private Duration leaseTimeout;
  private Thread poller;
  private ReadySubscription subscription;

  /** The messages of one slot: one message, or a stream's messages in order. */
  private static final class Run {
    final List<HeldLease> leases;
    final AtomicBoolean finished = new AtomicBoolean();
    volatile Thread runner;
    volatile HeldLease current;
    volatile HandlerContext context;

    Run(List<HeldLease> leases) {
      this.leases = leases;
    }
  }

  Dispatcher(Redrive redrive, WorkerConfig config) {
    this.redrive = redrive;
    this.config = config;
    this.metrics = new WorkerMetrics(config.meterRegistry(), config.queue(), config.id());
    this.settles =
        new SettleBatcher(
            redrive, running::size, wakeup::signal, "redrive-completions-" + config.id());
    this.slots = new Semaphore(config.concurrency());
    this.runners = Executors.newCachedThreadPool(threads("redrive-handler-" + config.id()));
    this.timers = Executors.newScheduledThreadPool(2, threads("redrive-worker-" + config.id()));
  }

  synchronized void start() {
    if (poller != null) {
      throw new IllegalStateException("worker " + config.id() + " was already started");
    }
    leaseTimeout =
        config.leaseTimeout() != null
            ? config.leaseTimeout()
            : redrive.getQueue(config.queue()).policy().leaseTimeout();
    settles.start();
    subscription = redrive.subscribeReady(config.queue(), wakeup::signal);
    long renewEvery = Math.max(10, leaseTimeout.toMillis() / 3);
    timers.scheduleWithFixedDelay(this::renewAll, renewEvery, renewEvery, TimeUnit.MILLISECONDS);
    if (!config.depthInterval().isZero()) {
      long every = config.depthInterval().toMillis();
      timers.scheduleWithFixedDelay(this::refreshDepth, 0, every, TimeUnit.MILLISECONDS);
    }
    leasing = true;
    poller = new Thread(this::poll, "redrive-poller-" + config.id());
    poller.setDaemon(true);
    poller.start();
    LOG.info(
        "worker {} started on queue {}: concurrency {}, batch {}, lease {}, types {}",
        config.id(),
        config.queue(),
        config.concurrency(),
        config.batchSize(),
        leaseTimeout,
        config.handlers().keySet());
  }

  int inFlight() {
    return running.size();
  }

  // ---- leasing ----

  private void poll() {
    Duration idle = config.pollMin();
    int fullBatch = Math.min(config.batchSize(), config.concurrency());
    long lingerNanos = Math.min(PARTIAL_BATCH_LINGER.toNanos(), config.pollMax().toNanos());
    long partialSince = 0;
    while (leasing) {
      try {
        int free = slots.availablePermits();
        if (free == 0) { // settles not yet committed hold their slots, so this bounds them too
          wakeup.await(config.pollMax());
          continue;
        }
        // Under a backlog, slots free up a few at a time; leasing each trickle would split one
        // batch into many small ones, each paying a whole transaction. Wait briefly for half a
        // batch of free slots while handlers are still running.
        if (free < (fullBatch + 1) / 2 && !running.isEmpty()) {
          long now = System.nanoTime();
          if (partialSince == 0) {
            partialSince = now;
          }
          long left = lingerNanos - (now - partialSince);
          if (left > 0) {
            wakeup.await(Duration.ofNanos(left));
            continue;
          }
        }
        partialSince = 0;
        LeaseResult result =
            redrive.lease(
                new LeaseRequest(
                    config.queue(), config.id(), Math.min(config.batchSize(), free), leaseTimeout));
        reportDeaths(result);
        if (result.leased().isEmpty()) {
          idle = wakeup.await(idle) ? config.pollMin() : twice(idle, config.pollMax());
          continue;
        }
        idle = config.pollMin();
        dispatch(result.leased());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.warn(
            "worker {} could not lease from {}; retrying in {}: {}",
            config.id(),
            config.queue(),
            config.pollMax(),
            e.toString());
        try {
          wakeup.await(config.pollMax());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private void reportDeaths(LeaseResult result) {
    if (!result.poisoned().isEmpty()) {
      for (String id : result.poisoned()) {
        LOG.error(
            "message {} (queue {}) is poison: it exceeded its attempts and was dead-lettered"
                + " without calling a handler (worker {})",
            id,
            config.queue(),
            config.id());
      }
    }
    for (String id : result.expired()) {
      LOG.error(
          "message {} (queue {}) passed its deadline and was dead-lettered as EXPIRED (worker {})",
          id,
          config.queue(),
          config.id());
    }
  }

  private void dispatch(List<LeasedMessage> leased) throws InterruptedException {
    long now = System.nanoTime();
    List<Run> runs = new ArrayList<>();
    Map<String, List<HeldLease>> streams = new LinkedHashMap<>();
    for (LeasedMessage m : leased) {
      HeldLease h = new HeldLease(m, now);
      held.add(h);
      if (m.stream() == null) {
        runs.add(new Run(List.of(h)));
      } else {
        streams.computeIfAbsent(m.stream(), s -> new ArrayList<>()).add(h);
      }
    }
    streams.values().forEach(list -> runs.add(new Run(list)));
    for (Run run : runs) {
      run.leases.forEach(h -> h.run = run);
      slots.acquire();
      metrics.started();
      running.add(run);
      runners.execute(() -> execute(run));
    }
  }

  // ---- running ----

  private void execute(Run run) {
    run.runner = Thread.currentThread();
    boolean settling = false;
    try {
      for (int i = 0; i < run.leases.size(); i++) {
        if (run.finished.get()) {
          return;
        }
        if (stopping) {
          releaseRest(run, i, "worker " + config.id() + " shutting down before it started");
          return;
        }
        Ran ran = runOne(run, run.leases.get(i), run.leases.size() == 1);
        if (ran == Ran.SETTLING) {
          settling = true; // the settle's answer finishes the run and frees the slot
          return;
        }
        if (ran == Ran.NOT_COMPLETED && i + 1 < run.leases.size()) {
          releaseRest(run, i + 1, "an earlier message of the stream did not complete");
          return;
        }
      }
    } finally {
      if (!settling) {
        finish(run);
      }
      Thread.interrupted(); // a late interrupt must not leak into the pooled thread's next run
    }
  }

  /** How a message's run went as far as its runner is concerned. */
  private enum Ran {
    COMPLETED,
    NOT_COMPLETED,
    /**
     * Handed to the settle thread: the runner goes back to the pool at once, but the slot stays
     * taken until the settle commits, so a message that kills the process right after cannot cost
     * an earlier message of the same slot its settle.
     */
    SETTLING
  }

  /**
   * Runs one message. A lone message's completion is handed to the group commit without waiting
   * ({@code async}); a stream's messages wait for theirs, since the next one may only run after it.
   */
  private Ran runOne(Run run, HeldLease h, boolean async) {
    LeasedMessage m = h.message;
    HandlerRegistration reg = config.handlers().get(m.type());
    if (reg == null) {
      unregistered(h);
      return Ran.NOT_COMPLETED;
    }
    metrics.leaseToStart(System.nanoTime() - h.leasedAtNanos);
    HandlerContext context = new HandlerContext(m, config.id(), redrive);
    h.startedAtNanos = System.nanoTime();
    h.started = true;
    run.current = h;
    run.context = context;
    ScheduledFuture<?> watchdog =
        reg.timeout() == null
            ? null
            : timers.schedule(
                () -> timedOut(run, h, context, reg.timeout()),
                reg.timeout().toNanos(),
                TimeUnit.NANOSECONDS);
    long start = System.nanoTime();
    HandlerResult result = null;
    Throwable error = null;
    try {
      result = reg.handler().handle(context);
    } catch (Throwable t) { // every failure counts, even Errors, so the attempt is recorded
      error = t;
    }
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
      return complete(run, h, took, async);
    }
    return fail(run, h, reg, context, result, error, took, async)
        ? Ran.SETTLING
        : Ran.NOT_COMPLETED;
  }

  private Ran complete(Run run, HeldLease h, long took, boolean async) {
    LeasedMessage m = h.message;
    if (async) {
      settles.completeLater(
          m.token(),
          m.id(),
          (completed, error) -> {
            try {
              completed(m, completed, error, took);
            } finally {
              held.remove(h);
              finish(run);
            }
          });
      return Ran.SETTLING;
    }
    boolean completed = false;
    RuntimeException failure = null;
    try {
      completed = settles.complete(m.token(), m.id());
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      return completed(m, completed, failure, took) ? Ran.COMPLETED : Ran.NOT_COMPLETED;
    } finally {
      held.remove(h);
    }
  }

  /** Reports a completion's outcome; true when it completed. */
  private boolean completed(LeasedMessage m, boolean completed, RuntimeException error, long took) {
    if (error != null) {
      couldNotSettle(m, error);
      return false;
    }
    if (!completed) {
      leaseLost(m);
      return false;
    }
    metrics.handlerDuration(m.type(), "completed", took);
    return true;
  }

  /**
   * Fails the message. A lone message's failure is handed to the group commit without waiting
   * ({@code async}, then true: the answer finishes the run); a stream's runner waits, since it
   * releases the rest only afterwards.
   */
  private boolean fail(
      Run run,
      HeldLease h,
      HandlerRegistration reg,
      HandlerContext context,
      HandlerResult result,
      Throwable error,
      long took,
      boolean async) {
    LeasedMessage m = h.message;
    FailRequest request;
    try {
      request = failRequest(m, reg, context, result, error);
    } catch (RuntimeException e) { // a classifier bug: the lease expires and is redelivered
      couldNotSettle(m, e);
      held.remove(h);
      return false;
    }
    metrics.handlerDuration(m.type(), "failed", took);
    if (async) {
      settles.failLater(
          request,
          m.id(),
          (settled, failure) -> {
            try {
              failed(m, request, settled, failure);
            } finally {
              held.remove(h);
              finish(run);
            }
          });
      return true;
    }
    try {
      failed(m, request, redrive.fail(request), null);
    } catch (LeaseLostException | LeaseNotFoundException e) {
      leaseLost(m);
    } catch (RuntimeException e) {
      couldNotSettle(m, e);
    } finally {
      held.remove(h);
    }
    return false;
  }

  /** Reports a failure's outcome: {@code settled} null means the lease was lost. */
  private void failed(
      LeasedMessage m, FailRequest request, SettleResult settled, RuntimeException error) {
    if (error != null) {
      couldNotSettle(m, error);
    } else if (settled == null) {
      leaseLost(m);
    } else {
      report(m, request, settled);
    }
  }

  private void leaseLost(LeasedMessage m) {
    LOG.warn(
        "message {} (type {}, queue {}, attempt {}/{}, worker {}) finished after its lease was"
            + " lost (expired and re-leased or settled elsewhere); its result is discarded",
        m.id(),
        m.type(),
        m.queue(),
        m.attempt(),
        m.maxAttempts(),
        config.id());
  }

  private void couldNotSettle(LeasedMessage m, RuntimeException e) {
    LOG.error(
        "message {} (type {}, queue {}, attempt {}/{}, worker {}) could not be settled; its"
            + " lease will expire and it will be delivered again",
        m.id(),
        m.type(),
        m.queue(),
        m.attempt(),
        m.maxAttempts(),
        config.id(),
        e);
  }

  private FailRequest failRequest(
      LeasedMessage m,
      HandlerRegistration reg,
      HandlerContext context,
      HandlerResult result,
      Throwable error) {
    if (error != null) {
      FailureClassifier classifier =
          reg.classifier() != null ? reg.classifier() : config.classifier();
      FailureReason reason = reportable(classifier.classify(error));
      return FailRequest.of(m.token(), reason, describe(error))
          .withStackTrace(StackTraces.bounded(error, StackTraces.DEFAULT_MAX_CHARS))
          .withProgress(context.progress());
    }
    if (result instanceof HandlerResult.RetryAfter r) {
      return FailRequest.of(m.token(), reportable(r.reason()), r.message())
          .withRetryAfter(r.delay())
          .withRetryable(true)
          .withProgress(context.progress());
    }
    if (result instanceof HandlerResult.Dead d) {
      return FailRequest.of(m.token(), reportable(d.reason()), d.message())
          .withRetryable(false)
          .withProgress(context.progress());
    }
    HandlerResult.Fail f = (HandlerResult.Fail) result;
    return FailRequest.of(m.token(), reportable(f.reason()), f.message())
        .withProgress(context.progress());
  }

  /**
   * Reasons only Redrive assigns become HANDLER_EXCEPTION when a handler or classifier says them.
   */
  private static FailureReason reportable(FailureReason reason) {
    return switch (reason) {
      case POISON, EXPIRED, LEASE_EXPIRED -> FailureReason.HANDLER_EXCEPTION;
      default -> reason;
    };
  }

  private void report(LeasedMessage m, FailRequest request, SettleResult s) {
    if (s.state() == MessageState.DEAD) {
      LOG.error(
          "message {} (type {}, queue {}, attempt {}/{}, worker {}) is dead ({}): {}{}",
          m.id(),
          m.type(),
          m.queue(),
          m.attempt(),
          m.maxAttempts(),
          config.id(),
          request.reason(),
          request.message(),
          s.deadLetterQueue() != null
              ? "; moved to " + s.deadLetterQueue()
              : s.discarded() ? "; discarded" : "; kept in place");
    } else {
      LOG.warn(
          "message {} (type {}, queue {}, attempt {}/{}, worker {}) failed ({}): {}; next"
              + " delivery at {}",
          m.id(),
          m.type(),
          m.queue(),
          m.attempt(),
          m.maxAttempts(),
          config.id(),
          request.reason(),
          request.message(),
          s.visibleAt());
    }
  }

  /**
   * No handler here for the message's type: failed as UNREGISTERED_HANDLER, which the engine turns
   * into an abandon with this worker's unregistered backoff (and logs), the same for every worker.
   */
  private void unregistered(HeldLease h) {
    LeasedMessage m = h.message;
    if (!h.claim()) {
      return;
    }
    try {
      redrive.fail(
          FailRequest.of(
                  m.token(),
                  FailureReason.UNREGISTERED_HANDLER,
                  "no handler for type " + m.type() + " on worker " + config.id())
              .withRetryAfter(config.unregisteredBackoff().delayAfter(m.attempt())));
    } catch (RuntimeException e) {
      LOG.warn("could not abandon unhandled message {}: {}", m.id(), e.toString());
    } finally {
      held.remove(h);
    }
  }

  /** The watchdog: the handler ran past its timeout. */
  private void timedOut(Run run, HeldLease h, HandlerContext context, Duration timeout) {
    synchronized (h) {
      if (!h.claim()) {
        return;
      }
      context.cancel();
      Thread runner = run.runner;
      if (runner != null) {
        runner.interrupt();
      }
    }
    LeasedMessage m = h.message;
    try {
      FailRequest request =
          FailRequest.of(
                  m.token(),
                  FailureReason.TIMEOUT_EXCEEDED,
                  "handler for type " + m.type() + " ran past its timeout of " + timeout)
              .withProgress(context.progress());
      metrics.handlerDuration(m.type(), "timed_out", timeout.toNanos());
      report(m, request, redrive.fail(request));
    } catch (RuntimeException e) {
      LOG.warn("could not fail timed-out message {}: {}", m.id(), e.toString());
    } finally {
      held.remove(h);
    }
    releaseRest(run, run.leases.indexOf(h) + 1, "an earlier message of the stream timed out");
    // The thread may ignore the interrupt forever; the slot is freed regardless.
    finish(run);
  }

  /** Gives back, refunded, the leases of a run from index {@code from} on (cascade release). */
  private void releaseRest(Run run, int from, String why) {
    release(claimRest(run, from), why);
  }

  /** Claims the leases of a run from index {@code from} on; returns the tokens now ours. */
  private List<String> claimRest(Run run, int from) {
    List<String> tokens = new ArrayList<>();
    for (int i = from; i < run.leases.size(); i++) {
      HeldLease r = run.leases.get(i);
      if (r.claim()) {
        tokens.add(r.message.token());
      }
      held.remove(r);
    }
    return tokens;
  }

  /** Gives back claimed leases with their attempts refunded. */
  private void release(List<String> tokens, String why) {
    if (tokens.isEmpty()) {
      return;
    }
    try {
      redrive.release(tokens);
    } catch (RuntimeException all) {
      // One lost lease fails the batch; give back the others one by one.
      for (String token : tokens) {
        try {
          redrive.release(List.of(token));
        } catch (RuntimeException e) {
          LOG.debug("could not release {}: {}", token, e.toString());
        }
      }
    }
    LOG.info(
        "worker {} released {} message(s) of queue {}: {}",
        config.id(),
        tokens.size(),
        config.queue(),
        why);
  }

  private void finish(Run run) {
    if (run.finished.compareAndSet(false, true)) {
      running.remove(run);
      metrics.finished();
      slots.release();
      wakeup.signal();
    }
  }

  // ---- heartbeats ----

  private void renewAll() {
    long maxNanos = config.maxRenewal().toNanos();
    for (HeldLease h : held) {
      if (h.lost || h.renewalStopped) {
        continue;
      }
      LeasedMessage m = h.message;
      // A claimed lease is being settled right now (a completion may wait for a group commit, a
      // slow store may delay a fail): keep it alive until the settle lands. Only a running,
      // unclaimed handler can hang; a stream message waiting for its turn keeps its lease.
      if (!h.claimed() && h.started && System.nanoTime() - h.startedAtNanos > maxNanos) {
        h.renewalStopped = true;
        giveUpHung(h);
        LOG.warn(
            "worker {} stopped renewing the lease of message {} (type {}, attempt {}/{}) after"
                + " {}: its handler seems stuck; the lease will expire and the message be"
                + " delivered again",
            config.id(),
            m.id(),
            m.type(),
            m.attempt(),
            m.maxAttempts(),
            config.maxRenewal());
        continue;
      }
      try {
        redrive.renew(m.token(), leaseTimeout);
      } catch (LeaseLostException | LeaseNotFoundException e) {
        if (!h.claimed()) {
          h.lost = true;
          LOG.warn(
              "worker {} lost the lease of message {} (type {}): {}",
              config.id(),
              m.id(),
              m.type(),
              e.getMessage());
        }
      } catch (RuntimeException e) {
        LOG.warn(
            "worker {} could not renew the lease of {}: {}", config.id(), m.id(), e.toString());
      }
    }
  }

  /**
   * A handler held its lease for {@code maxRenewal}: stop renewing and let the lease expire (the
   * next delivery counts it as LEASE_EXPIRED), interrupt the handler and free its slot so a hung
   * handler cannot starve the worker.
   */
  private void giveUpHung(HeldLease h) {
    Run run = (Run) h.run;
    synchronized (h) {
      if (!h.claim()) {
        return;
      }
      if (run != null && run.context != null && run.current == h) {
        run.context.cancel();
        Thread runner = run.runner;
        if (runner != null) {
          runner.interrupt();
        }
      }
    }
    held.remove(h);
    if (run != null) {
      releaseRest(run, run.leases.indexOf(h) + 1, "an earlier message of the stream hung");
      finish(run);
    }
  }

  private void refreshDepth() {
    try {
      metrics.depth(redrive.stats(config.queue()));
    } catch (RuntimeException e) {
      LOG.debug("queue depth of {} not refreshed: {}", config.queue(), e.toString());
    }
  }

  // ---- stopping ----

  /** Stops leasing, lets running handlers finish up to {@code grace}, then gives the rest back. */
  boolean stop(Duration grace) {
    synchronized (this) {
      if (poller == null || !leasing) {
        return true;
      }
      leasing = false;
    }
    wakeup.signal();
    join(poller, config.pollMax().plusSeconds(5));
    stopping = true;
    long deadline = System.nanoTime() + grace.toNanos();
    while (!running.isEmpty() && System.nanoTime() < deadline) {
      try {
        wakeup.await(Duration.ofMillis(20));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    boolean clean = running.isEmpty();
    for (Run run : List.copyOf(running)) {
      abortAtDeadline(run);
    }
    timers.shutdownNow();
    // Let runners that are settling right at the deadline finish; a hung one is left behind.
    runners.shutdown();
    try {
      runners.awaitTermination(
          Math.min(2_000, Math.max(100, grace.toMillis())), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    runners.shutdownNow();
    settles.close(Duration.ofSeconds(5));
    if (subscription != null) {
      subscription.close();
    }
    LOG.info(
        "worker {} stopped{}",
        config.id(),
        clean ? "" : " (handlers were cut off at the deadline)");
    return clean;
  }

  private void abortAtDeadline(Run run) {
    HeldLease h = run.current;
    // Claim the unstarted rest before interrupting: a handler that honours the interrupt returns
    // at once, and its runner would otherwise release them after stop() has returned.
    List<String> rest = claimRest(run, h == null ? 0 : run.leases.indexOf(h) + 1);
    if (h != null) {
      boolean mine;
      synchronized (h) {
        mine = h.claim();
        if (mine) {
          HandlerContext context = run.context;
          if (context != null) {
            context.cancel();
          }
          Thread runner = run.runner;
          if (runner != null) {
            runner.interrupt();
          }
        }
      }
      if (mine) {
        try {
          redrive.abandon(
              new AbandonRequest(
                  h.message.token(),
                  Duration.ZERO,
                  true,
                  "worker " + config.id() + " shut down before the handler finished",
                  null));
        } catch (RuntimeException e) {
          LOG.warn("could not give back message {} at shutdown: {}", h.message.id(), e.toString());
        }
        held.remove(h);
      }
    }
    release(rest, "worker shutting down");
    finish(run);
  }

  private static void join(Thread t, Duration max) {
    try {
      t.join(max.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Duration twice(Duration d, Duration max) {
    Duration next = d.multipliedBy(2);
    return next.compareTo(max) > 0 ? max : next;
  }

  private static String describe(Throwable t) {
    String msg = t.getMessage();
    return t.getClass().getName() + (msg == null ? "" : ": " + msg);
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
