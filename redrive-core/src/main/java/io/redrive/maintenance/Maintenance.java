package io.redrive.maintenance;

import io.redrive.Redrive;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the deadline sweep ({@link Redrive#expireDue(int)}) every {@code interval} on one daemon
 * thread, so a message past its deadline dies as EXPIRED, the way its queue's dead-letter policy
 * says, whether it is ready, scheduled or leased and whether or not anyone leases from its queue;
 * and deletes completion records older than the engine's completion window ({@link
 * Redrive#forgetCompletions(int)}); and, in the same sweep, gives back the messages of leases whose
 * answer was lost when the give-back at the time failed too ({@link Redrive#releaseUndelivered()});
 * and, once a minute, records every queue's depth for the throughput charts ({@link
 * Redrive#recordDepth()}) and deletes throughput counters and depth snapshots older than the
 * throughput retention ({@link Redrive#forgetThroughput(Duration)}, default 24 h); and every {@link
 * #UNSERVED_CHECK_INTERVAL} checks every queue for types no live worker takes ({@link
 * Redrive#checkUnservedTypes()}: each node reads the store, so all nodes agree). Beside the sweep
 * it runs a {@link Scheduler}, which fires recurring schedules on its own thread (off with {@link
 * Builder#schedules(boolean)}).
 *
 * <p>Safe to run on every node sharing a database: each sweep is a series of transactions that skip
 * rows another node holds, and no message is dead-lettered twice. A failed sweep (e.g. the database
 * is unreachable) is logged and retried at the next interval. Start with {@link #start(Redrive)} or
 * {@link #builder(Redrive)}; {@link #close()} stops it, waiting for a sweep in progress.
 * Thread-safe.
 */
public final class Maintenance implements AutoCloseable {
  /** How often the sweep runs by default. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

  /** Messages dead-lettered per transaction by default. */
  public static final int DEFAULT_BATCH_SIZE = 500;

  /**
   * How long throughput counters and depth snapshots are kept by default: 24 hours, the longest
   * window {@link Redrive#throughput(String, Duration)} reads.
   */
  public static final Duration DEFAULT_THROUGHPUT_RETENTION = Duration.ofHours(24);

  /** How often the sweep checks for unserved types (docs/engine.md, "Live workers ..."). */
  public static final Duration UNSERVED_CHECK_INTERVAL = Duration.ofSeconds(15);

  private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

  private final Redrive redrive;
  private final Duration interval;
  private final int batchSize;
  private final Duration throughputRetention;
  private final ScheduledExecutorService sweeper;
  private final Scheduler scheduler;

  /**
   * The last minute (epoch minute of the engine's clock) whose depth snapshot and throughput
   * clean-up this node did; only the sweeper thread touches it. Other nodes may have done the
   * minute first: the store then writes nothing.
   */
  private long lastThroughputMinute = Long.MIN_VALUE;

  /** When (engine clock, epoch ms) this node last checked for unserved types; sweeper only. */
  private long lastUnservedCheck = Long.MIN_VALUE;

  private Maintenance(
      Redrive redrive,
      Duration interval,
      int batchSize,
      Duration throughputRetention,
      boolean schedules) {
    this.redrive = redrive;
    this.interval = interval;
    this.batchSize = batchSize;
    this.throughputRetention = throughputRetention;
    this.sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "redrive-maintenance");
              t.setDaemon(true);
              return t;
            });
    sweeper.scheduleWithFixedDelay(
        this::sweep, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    this.scheduler = schedules ? Scheduler.start(redrive) : null;
  }

  /** Starts the sweep with the default interval (1 s) and batch size (500). */
  public static Maintenance start(Redrive redrive) {
    return builder(redrive).start();
  }

  /** Starts configuring maintenance over {@code redrive}. */
  public static Builder builder(Redrive redrive) {
    return new Builder(redrive);
  }

  /** The time between the end of one sweep and the start of the next. */
  public Duration interval() {
    return interval;
  }

  private void sweep() {
    try {
      int expired = redrive.expireDue(batchSize);
      if (expired > 0) {
        LOG.info("deadline sweep dead-lettered {} messages as EXPIRED", expired);
      }
    } catch (RuntimeException e) {
      LOG.warn("deadline sweep failed; retrying in {}: {}", interval, e.toString());
    }
    try {
      redrive.forgetCompletions(batchSize);
    } catch (RuntimeException e) {
      LOG.warn("completion records clean-up failed; retrying in {}: {}", interval, e.toString());
    }
    try {
      redrive.releaseUndelivered(); // logs what it gives back
    } catch (RuntimeException e) {
      LOG.warn("give-back of lost leases failed; retrying in {}: {}", interval, e.toString());
    }
    long minute = Math.floorDiv(redrive.clock().millis(), 60_000L);
    if (minute != lastThroughputMinute) {
      try {
        redrive.recordDepth();
        redrive.forgetThroughput(throughputRetention);
        lastThroughputMinute = minute;
      } catch (RuntimeException e) {
        LOG.warn("throughput snapshot failed; retrying in {}: {}", interval, e.toString());
      }
    }
    long millis = redrive.clock().millis();
    if (lastUnservedCheck == Long.MIN_VALUE
        || millis - lastUnservedCheck >= UNSERVED_CHECK_INTERVAL.toMillis()
        || millis < lastUnservedCheck) {
      try {
        redrive.checkUnservedTypes(); // logs what it raises and clears
        lastUnservedCheck = millis;
      } catch (RuntimeException e) {
        LOG.warn("unserved types check failed; retrying in {}: {}", interval, e.toString());
      }
    }
  }

  /** How long throughput counters and depth snapshots are kept. */
  public Duration throughputRetention() {
    return throughputRetention;
  }

  /** Stops sweeping, waiting up to 10 s for a sweep in progress. Idempotent. */
  @Override
  public void close() {
    if (scheduler != null) {
      scheduler.close();
    }
    sweeper.shutdown();
    try {
      if (!sweeper.awaitTermination(10, TimeUnit.SECONDS)) {
        sweeper.shutdownNow();
      }
    } catch (InterruptedException e) {
      sweeper.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  /** Builds and starts a {@link Maintenance}; not thread-safe. */
  public static final class Builder {
    private final Redrive redrive;
    private Duration interval = DEFAULT_INTERVAL;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private Duration throughputRetention = DEFAULT_THROUGHPUT_RETENTION;
    private boolean schedules = true;

    private Builder(Redrive redrive) {
      if (redrive == null) {
        throw new IllegalArgumentException("redrive: is required");
      }
      this.redrive = redrive;
    }

    /** Time between sweeps, 10 ms to 1 h (default 1 s). */
    public Builder interval(Duration value) {
      this.interval = requireInterval(value);
      return this;
    }

    /** Messages dead-lettered per transaction, 1–10000 (default 500). */
    public Builder batchSize(int value) {
      if (value < 1 || value > 10_000) {
        throw new IllegalArgumentException("batchSize: must be between 1 and 10000, was " + value);
      }
      this.batchSize = value;
      return this;
    }

    /**
     * How long throughput counters and depth snapshots are kept, 1 hour to 30 days (default 24 h);
     * longer than 24 h keeps rows no read shows, for an operator's own queries.
     */
    public Builder throughputRetention(Duration value) {
      if (value == null
          || value.compareTo(Duration.ofHours(1)) < 0
          || value.compareTo(Duration.ofDays(30)) > 0) {
        throw new IllegalArgumentException(
            "throughputRetention: must be between 1h and 30d, was " + value);
      }
      this.throughputRetention = value;
      return this;
    }

    /**
     * Whether recurring schedules fire here too (default true); off for a node that should only
     * sweep. Safe on every node either way: each due time fires once.
     */
    public Builder schedules(boolean value) {
      this.schedules = value;
      return this;
    }

    /** Starts sweeping; the first sweep runs one interval from now. */
    public Maintenance start() {
      return new Maintenance(redrive, interval, batchSize, throughputRetention, schedules);
    }
  }

  /**
   * Checks a sweep interval: 10 ms to 1 h.
   *
   * @throws IllegalArgumentException naming {@code interval} and the value otherwise
   */
  public static Duration requireInterval(Duration value) {
    if (value == null
        || value.compareTo(Duration.ofMillis(10)) < 0
        || value.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException("interval: must be between 10ms and 1h, was " + value);
    }
    return value;
  }
}
