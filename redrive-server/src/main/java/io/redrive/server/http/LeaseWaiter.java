package io.redrive.server.http;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.lease.LeasedMessage;
import io.redrive.store.ReadySubscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Long-poll leasing without holding an HTTP thread: a waiting lease call retries when the store
 * signals that its queue may have messages (an enqueue or a retry, in this process or, on
 * PostgreSQL, by NOTIFY from another), and otherwise only on a slow safety poll ({@link
 * #SAFETY_POLL} by default), so idle waiters cost no CPU. The safety poll is what finds messages
 * that become visible without a signal (a delay or a retry backoff running out, an expired lease,
 * an enqueue in another process on SQLite): those reach a waiting call up to one safety poll late.
 * Thread-safe.
 *
 * <p>Implementation notes: each poll runs at most one lease attempt at a time (a signal during an
 * attempt schedules one more). At the deadline a poll makes one last attempt (unless one is under
 * way), so a message that became visible during the wait is not missed for want of a safety poll.
 * The deadline and {@link #close()} only end a poll between attempts, so a message leased by the
 * last attempt is always delivered, never dropped on the floor.
 */
final class LeaseWaiter implements AutoCloseable {
  /** How often a waiting call re-checks without a signal (documented in docs/api.md). */
  static final Duration SAFETY_POLL = Duration.ofSeconds(5);

  private final Redrive redrive;
  private final ScheduledExecutorService timer;
  private final ExecutorService attempts;
  private final Set<Poll> pending = ConcurrentHashMap.newKeySet();
  private final Duration safetyPoll;
  private volatile boolean closed;

  LeaseWaiter(Redrive redrive, int threads) {
    this(redrive, threads, SAFETY_POLL);
  }

  LeaseWaiter(Redrive redrive, int threads, Duration safetyPoll) {
    if (safetyPoll.isNegative() || safetyPoll.isZero()) {
      throw new IllegalArgumentException("safetyPoll must be positive, got " + safetyPoll);
    }
    this.redrive = redrive;
    this.safetyPoll = safetyPoll;
    this.timer = Executors.newSingleThreadScheduledExecutor(daemon("redrive-lease-timer"));
    this.attempts = Executors.newFixedThreadPool(threads, daemon("redrive-lease-wait"));
  }

  boolean closed() {
    return closed;
  }

  /**
   * Waits up to {@code wait} for the request to lease something; completes with the first non-empty
   * result, or with an empty one (carrying the ids poisoned or expired meanwhile) at the deadline
   * or when the waiter closes.
   */
  CompletableFuture<LeaseResult> await(LeaseRequest request, Duration wait, LeaseResult first) {
    Poll poll = new Poll(request, first);
    pending.add(poll);
    if (closed) {
      poll.expire();
      return poll.future;
    }
    try {
      ReadySubscription subscription = redrive.subscribeReady(request.queue(), poll::signal);
      synchronized (poll) {
        poll.subscription = subscription;
      }
      poll.tick =
          timer.scheduleWithFixedDelay(
              poll::signal, safetyPoll.toMillis(), safetyPoll.toMillis(), TimeUnit.MILLISECONDS);
      poll.timeout = timer.schedule(poll::deadline, wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      poll.expire();
    }
    if (poll.future.isDone()) {
      poll.cleanUp();
    }
    return poll.future;
  }

  /** Ends every pending poll (empty unless an attempt is under way) and stops the threads. */
  @Override
  public void close() {
    closed = true;
    for (Poll p : List.copyOf(pending)) {
      p.expire();
    }
    timer.shutdownNow();
    attempts.shutdown();
    try {
      if (!attempts.awaitTermination(5, TimeUnit.SECONDS)) {
        attempts.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private final class Poll {
    final CompletableFuture<LeaseResult> future = new CompletableFuture<>();
    final LeaseRequest request;
    final List<String> poisoned = new ArrayList<>();
    final List<String> expired = new ArrayList<>();
    volatile ReadySubscription subscription;
    volatile ScheduledFuture<?> tick;
    volatile ScheduledFuture<?> timeout;
    private boolean running;
    private boolean again;
    private boolean ending;
    private boolean last;
    private boolean done;

    Poll(LeaseRequest request, LeaseResult first) {
      this.request = request;
      poisoned.addAll(first.poisoned());
      expired.addAll(first.expired());
    }

    void signal() {
      synchronized (this) {
        if (done || ending || last) {
          return;
        }
        again = true;
        if (running) {
          return;
        }
        running = true;
      }
      try {
        attempts.execute(this::drain);
      } catch (RejectedExecutionException e) {
        synchronized (this) {
          running = false;
        }
        expire();
      }
    }

    private void drain() {
      while (true) {
        boolean endNow;
        synchronized (this) {
          if (done) {
            running = false;
            return;
          }
          if (ending) {
            running = false;
            done = true;
            endNow = true;
          } else if (!again) {
            running = false;
            return;
          } else {
            again = false;
            endNow = false;
          }
        }
        if (endNow) {
          finish(List.of());
          return;
        }
        LeaseResult result;
        try {
          result = redrive.lease(request);
        } catch (RuntimeException e) {
          synchronized (this) {
            running = false;
            done = true;
          }
          cleanUp();
          future.completeExceptionally(e);
          return;
        }
        boolean end;
        synchronized (this) {
          poisoned.addAll(result.poisoned());
          expired.addAll(result.expired());
          end = !result.leased().isEmpty() || ending || last;
          if (end) {
            running = false;
            done = true;
          }
        }
        if (end) {
          finish(result.leased());
          return;
        }
      }
    }

    /** The wait is over: one last attempt, or, with one under way, that one is the last. */
    void deadline() {
      synchronized (this) {
        if (done || ending || last) {
          return;
        }
        if (running) {
          ending = true;
          return;
        }
        running = true;
        again = true;
        last = true;
      }
      try {
        attempts.execute(this::drain);
      } catch (RejectedExecutionException e) {
        synchronized (this) {
          running = false;
        }
        expire();
      }
    }

    void expire() {
      synchronized (this) {
        if (done) {
          return;
        }
        ending = true;
        if (running) {
          return;
        }
        done = true;
      }
      finish(List.of());
    }

    private void finish(List<LeasedMessage> leased) {
      cleanUp();
      List<String> p;
      List<String> x;
      synchronized (this) {
        p = List.copyOf(poisoned);
        x = List.copyOf(expired);
      }
      future.complete(new LeaseResult(leased, p, x));
    }

    private void cleanUp() {
      pending.remove(this);
      if (tick != null) {
        tick.cancel(false);
      }
      if (timeout != null) {
        timeout.cancel(false);
      }
      ReadySubscription s;
      synchronized (this) {
        s = subscription;
        subscription = null;
      }
      if (s != null) {
        try {
          s.close();
        } catch (RuntimeException ignored) {
          // a failing unsubscribe must not lose the response
        }
      }
    }
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
