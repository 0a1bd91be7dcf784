package io.redrive;

import io.redrive.store.NodeBeatParams;
import io.redrive.store.Store;
import java.lang.ref.WeakReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * This engine's liveness row in the store (docs/engine.md, "Crash evidence"): a random node id, and
 * a beat every {@link #INTERVAL} that keeps "continuously alive since" true. Beats come from one
 * daemon timer thread shared by every engine of the JVM (real time), and from the lease path when
 * one is due by the engine's clock ({@link #beatIfDue}: an in-memory check, one statement at most
 * per interval, so a lease pays nothing more; and a process that was frozen resets its row before
 * its lease can witness anything). The timer holds the engine weakly: an engine dropped without
 * {@link #close} stops beating once collected.
 *
 * <p>Threads: the timer thread and lease callers enter {@link #beatIfDue} (a volatile read, and a
 * beat serialised on this when one is due); {@link #start} and {@link #close} from any thread.
 */
final class EngineLiveness {
  /** How often a node beats. */
  static final Duration INTERVAL = Duration.ofSeconds(5);

  /** A beat older than this breaks the node's span: it was frozen or cut off from the database. */
  static final Duration STALE_AFTER = INTERVAL.multipliedBy(3);

  /** Rows of nodes not seen for this long are deleted (an expiry met later reads no evidence). */
  static final Duration FORGET_AFTER = Duration.ofDays(7);

  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "redrive-liveness");
            t.setDaemon(true);
            return t;
          });

  private final Store store;
  private final Clock clock;
  private final String node;
  private Instant lastBeat;
  private volatile long nextBeat = Long.MIN_VALUE;
  private ScheduledFuture<?> timer;
  private volatile boolean started;
  private boolean closed;

  EngineLiveness(Store store, Clock clock) {
    this.store = store;
    this.clock = clock;
    this.node =
        "engine-"
            + ProcessHandle.current().pid()
            + "-"
            + UUID.randomUUID().toString().substring(0, 8);
  }

  String node() {
    return node;
  }

  /**
   * This node's id when its last beat succeeded within {@link #INTERVAL}, else null: only then may
   * a lease name it as the engine meeting an expiry (its row is known to be current).
   */
  String witness() {
    return clock.millis() < nextBeat ? node : null;
  }

  /** Starts the timer (once; a no-op when running or closed). */
  void start() {
    if (started) {
      return;
    }
    synchronized (this) {
      if (started || closed) {
        return;
      }
      started = true;
      timer =
          TIMER.scheduleWithFixedDelay(
              new Beat(this), 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Beats when the last beat is {@link #INTERVAL} old or more by the engine's clock. A failed beat
   * is logged and tried again at the next chance: the gap it leaves is what breaks the span.
   */
  void beatIfDue() {
    if (clock.millis() < nextBeat) {
      return; // the lease path's usual answer: no lock, no statement
    }
    beat();
  }

  private synchronized void beat() {
    if (closed) {
      return;
    }
    Instant now = clock.instant();
    if (lastBeat != null && now.isBefore(lastBeat.plus(INTERVAL))) {
      return;
    }
    try {
      store.beatNode(new NodeBeatParams(node, now, STALE_AFTER, FORGET_AFTER));
      lastBeat = now;
      nextBeat = now.plus(INTERVAL).toEpochMilli();
    } catch (RuntimeException e) {
      EngineLog.LOG.debug("liveness beat of {} failed: {}", node, e.toString());
    }
  }

  synchronized void close() {
    closed = true;
    if (timer != null) {
      timer.cancel(false);
    }
  }

  /** The timer's task; holds the engine weakly and ends itself once it is gone. */
  private static final class Beat implements Runnable {
    private final WeakReference<EngineLiveness> liveness;

    Beat(EngineLiveness liveness) {
      this.liveness = new WeakReference<>(liveness);
    }

    @Override
    public void run() {
      EngineLiveness l = liveness.get();
      if (l == null) {
        throw new CancellationException("engine collected"); // ends the periodic task
      }
      l.beatIfDue();
    }
  }
}
