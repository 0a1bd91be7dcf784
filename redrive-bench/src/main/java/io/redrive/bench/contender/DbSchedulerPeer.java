package io.redrive.bench.contender;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.SchedulableInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * db-scheduler ({@code com.github.kagkarlsson:db-scheduler}) as the queue peer: its {@code
 * scheduled_tasks} table (the documented PostgreSQL DDL, bundled as {@code
 * db-scheduler/postgresql_tables.sql}) in one schema of a PostgreSQL database, one one-time task
 * {@value #TASK} whose data is the benchmark's {@link Payload} (stored by db-scheduler's default
 * Java serialization) and whose handler does nothing but count. Messages go in through a {@link
 * SchedulerClient} (the producer side without a running scheduler): {@code schedule} one at a time
 * (db-scheduler first looks the instance up, then inserts it: two autocommitted statements), or
 * {@code scheduleBatch} (one JDBC batch of single-row inserts: one statement per message, and on
 * PostgreSQL 15 about 4 commits per batch of 1 000 were measured). The instance ids are random
 * UUIDs, due now.
 *
 * <p>The scheduler that works them off is tuned as db-scheduler's README recommends for high
 * throughput on PostgreSQL: {@code threads(n)}; the {@code lock-and-fetch} polling strategy ({@code
 * pollUsingLockAndFetch(1.0, 4.0)}: one {@code UPDATE … WHERE … IN (SELECT … FOR UPDATE SKIP
 * LOCKED) RETURNING} picks up to 4 × threads executions, fetching again when at most 1 × threads
 * are left), {@code pollingInterval(1 s)} (10 s by default; with a backlog the next fetch is
 * triggered by the executions running out, not by the interval), {@code enableImmediateExecution()}
 * (which only speeds up what this scheduler schedules itself), a fixed scheduler name, and the
 * defaults for everything else (heartbeat every 5 min, no priorities, autodetected PostgreSQL
 * customization with its single-statement lock-and-fetch). A one-time task's execution is deleted
 * on completion. The pool is HikariCP's with {@code threads + 2} connections: each execution thread
 * deletes its execution on its own connection, and the fetch and the housekeeping need one each.
 * Not thread-safe apart from {@link #schedule()} and {@link #scheduleBatch(int)}.
 */
public final class DbSchedulerPeer implements AutoCloseable {
  /** The task's name. */
  public static final String TASK = "bench";

  /** Fetch again when at most this many executions per thread are left. */
  public static final double LOWER_LIMIT_FRACTION_OF_THREADS = 1.0;

  /** Fetch up to this many executions per thread. */
  public static final double UPPER_LIMIT_FRACTION_OF_THREADS = 4.0;

  /** How often the scheduler looks for due executions when nothing else makes it look. */
  public static final Duration POLLING_INTERVAL = Duration.ofSeconds(1);

  private final HikariDataSource pool;
  private final OneTimeTask<String> task;
  private final SchedulerClient client;
  private final AtomicLong handled = new AtomicLong();
  private Scheduler scheduler;

  private DbSchedulerPeer(HikariDataSource pool) {
    this.pool = pool;
    this.task =
        Tasks.oneTime(TASK, String.class).execute((instance, ctx) -> handled.getAndIncrement());
    this.client = SchedulerClient.Builder.create(pool, task).build();
  }

  /** Creates db-scheduler's table in {@code db} and opens a pool of {@code poolSize} on it. */
  public static DbSchedulerPeer open(BenchDatabase db, int poolSize) {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      for (String sql : RawSql.statements(RawSql.resource("db-scheduler/postgresql_tables.sql"))) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("creating scheduled_tasks failed: " + e.getMessage(), e);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setMaximumPoolSize(poolSize);
    config.setPoolName("db-scheduler");
    return new DbSchedulerPeer(new HikariDataSource(config));
  }

  /** Schedules one execution, due now. */
  public void schedule() {
    client.schedule(instance(Instant.now()));
  }

  /** Schedules {@code count} executions, due now, in one {@code scheduleBatch}. */
  public void scheduleBatch(int count) {
    Instant now = Instant.now();
    List<SchedulableInstance<?>> batch = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      batch.add(instance(now));
    }
    client.scheduleBatch(batch);
  }

  private SchedulableInstance<String> instance(Instant due) {
    return SchedulableInstance.of(task.instance(UUID.randomUUID().toString(), Payload.JSON), due);
  }

  /** Starts the scheduler with {@code threads} execution threads. */
  public void start(int threads) {
    scheduler =
        Scheduler.create(pool, task)
            .threads(threads)
            .pollUsingLockAndFetch(LOWER_LIMIT_FRACTION_OF_THREADS, UPPER_LIMIT_FRACTION_OF_THREADS)
            .pollingInterval(POLLING_INTERVAL)
            .enableImmediateExecution()
            .schedulerName(new SchedulerName.Fixed("redrive-bench"))
            .build();
    scheduler.start();
  }

  /** Executions the handler ran so far. */
  public long handled() {
    return handled.get();
  }

  /** Executions still in the table (picked or not). */
  public long remaining() {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM scheduled_tasks")) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException("counting scheduled_tasks failed: " + e.getMessage(), e);
    }
  }

  /** Stops the scheduler, if started, and closes the pool. */
  @Override
  public void close() {
    if (scheduler != null) {
      scheduler.stop();
      scheduler = null;
    }
    pool.close();
  }
}
