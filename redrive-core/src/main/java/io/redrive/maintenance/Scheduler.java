package io.redrive.maintenance;

import io.redrive.Redrive;
import io.redrive.schedule.Firing;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires recurring schedules ({@link io.redrive.Schedules#fireDue(int)}) on one daemon thread: it
 * wakes at the earliest next due time (read against the engine's clock), at least every {@code
 * maxWait} (so schedules saved on other nodes are seen), and at once when a schedule is saved or
 * resumed on this node.
 *
 * <p>Safe to run on every node sharing a database: the store fires each due time once (a firing
 * claims the schedule's row and produces in the same transaction). A failed firing (e.g. the
 * database is unreachable) is logged and retried at the next wake-up. Threads: the {@code
 * redrive-scheduler} thread alone fires; {@link #wake()} and {@link #close()} come from any thread.
 */
public final class Scheduler implements AutoCloseable {
  /** The longest sleep between firings by default. */
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(1);

  /** Schedules fired per wake-up at most. */
  static final int BATCH = 100;

  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

  private final Redrive redrive;
  private final Duration maxWait;
  private final Thread thread;
  private final Object monitor = new Object();
  private boolean woken;
  private volatile boolean stopped;

  private Scheduler(Redrive redrive, Duration maxWait) {
    this.redrive = redrive;
    this.maxWait = maxWait;
    this.thread = new Thread(this::run, "redrive-scheduler");
    thread.setDaemon(true);
    redrive.schedules().onSaved(this::wake);
    thread.start();
  }

  /** Starts firing with the default longest sleep (1 s). */
  public static Scheduler start(Redrive redrive) {
    return start(redrive, DEFAULT_MAX_WAIT);
  }

  /**
   * Starts firing, sleeping at most {@code maxWait} (10 ms to 1 h) between firings.
   *
   * @throws IllegalArgumentException naming {@code maxWait} and the value when out of range
   */
  public static Scheduler start(Redrive redrive, Duration maxWait) {
    if (redrive == null) {
      throw new IllegalArgumentException("redrive: is required");
    }
    if (maxWait == null
        || maxWait.compareTo(Duration.ofMillis(10)) < 0
        || maxWait.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException("maxWait: must be between 10ms and 1h, was " + maxWait);
    }
    return new Scheduler(redrive, maxWait);
  }

  /** Fires at once (e.g. after a save); a no-op after {@link #close()}. */
  public void wake() {
    synchronized (monitor) {
      woken = true;
      monitor.notifyAll();
    }
  }

  private void run() {
    while (!stopped) {
      Duration wait = maxWait;
      try {
        List<Firing> fired = redrive.schedules().fireDue(BATCH);
        for (Firing f : fired) {
          LOG.debug("schedule {} fired for {}: {}", f.schedule(), f.dueAt(), f.producedId());
        }
        if (fired.size() >= BATCH) {
          continue; // more may be due
        }
        Optional<Instant> next = redrive.schedules().nextDueAt();
        if (next.isPresent()) {
          Duration until = Duration.between(redrive.clock().instant(), next.get());
          wait =
              until.isNegative() ? Duration.ZERO : until.compareTo(maxWait) < 0 ? until : maxWait;
        }
      } catch (RuntimeException e) {
        LOG.warn("schedule firing failed; retrying in {}: {}", maxWait, e.toString());
      }
      sleep(wait);
    }
  }

  private void sleep(Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    synchronized (monitor) {
      try {
        while (!woken && !stopped) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          monitor.wait(Math.max(1, left / 1_000_000));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stopped = true;
      }
      woken = false;
    }
  }

  /** Stops firing, waiting up to 10 s for a firing in progress. Idempotent. */
  @Override
  public void close() {
    stopped = true;
    wake();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
