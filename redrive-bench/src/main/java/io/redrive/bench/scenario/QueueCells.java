package io.redrive.bench.scenario;

import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.DbSchedulerPeer;
import io.redrive.bench.contender.Target;
import java.time.Duration;
import java.util.List;

/**
 * One run of one {@link QueueCell} by one system of the queue peer comparison, on a fresh schema of
 * {@code target}: {@code redrive} ({@code Redrive.enqueue} / {@code enqueueBatch} by producers each
 * with its own engine, as {@link EnqueueScenario}; one {@code Worker} of concurrency T leasing B,
 * as {@link DrainScenario}), {@code raw} (the baseline's {@code enq1.sql} and {@code cycle.sql}, a
 * drain by T clients claiming B at a time) or {@code db-scheduler} ({@link DbSchedulerPeer}). A
 * drain's backlog is enqueued 500 per call by the system itself (the baseline: {@code fill.sql})
 * and {@code VACUUM ANALYZE}d before the timing. {@code atStart} runs once the setup is done, just
 * before the timing starts; what it counts from there ends when the run returns, its connections
 * closed. A cell's {@link QueueFeature} is Redrive's alone: the other systems run the plain cell.
 */
public final class QueueCells {
  private static final int PREFILL_BATCH = 500;

  private QueueCells() {}

  /** Runs {@code cell} with {@code messages}; enqueue cells with {@code producers} threads. */
  public static Measurement run(
      String system, Target target, QueueCell cell, int messages, int producers, Runnable atStart)
      throws Exception {
    int threads = cell.threads();
    int batch = cell.batch();
    return switch (system) {
      case "redrive" ->
          cell.drain()
              ? DrainScenario.drainOurs(
                  target, 1, threads, batch, messages, cell.feature(), atStart)
              : EnqueueScenario.enqueueOurs(
                  target, producers, batch, messages, cell.feature(), atStart);
      case "raw" -> {
        if (!cell.drain()) {
          yield EnqueueScenario.enqueueBaseline(target, producers, batch, messages, atStart);
        }
        try (BenchDatabase db = target.newDatabase()) {
          yield RawDrain.run(db, messages, threads, batch, atStart);
        }
      }
      case "db-scheduler" ->
          cell.drain()
              ? dbSchedulerDrain(target, threads, messages, atStart)
              : dbSchedulerEnqueue(target, producers, batch, messages, atStart);
      default -> throw new IllegalArgumentException("system: " + system);
    };
  }

  private static Measurement dbSchedulerEnqueue(
      Target target, int producers, int batch, int count, Runnable atStart) throws Exception {
    try (BenchDatabase db = target.newDatabase();
        DbSchedulerPeer peer = DbSchedulerPeer.open(db, producers + 2)) {
      atStart.run();
      long nanos =
          Parallel.run(
              producers,
              p -> {
                for (int i = Parallel.share(count / batch, producers, p); i > 0; i--) {
                  if (batch == 1) {
                    peer.schedule();
                  } else {
                    peer.scheduleBatch(batch);
                  }
                }
              });
      return Measurement.of(count / batch * (long) batch, nanos);
    }
  }

  private static Measurement dbSchedulerDrain(
      Target target, int threads, int count, Runnable atStart) throws Exception {
    try (BenchDatabase db = target.newDatabase();
        DbSchedulerPeer peer = DbSchedulerPeer.open(db, threads + 2)) {
      for (int left = count; left > 0; left -= PREFILL_BATCH) {
        peer.scheduleBatch(Math.min(PREFILL_BATCH, left));
      }
      db.analyze(List.of("scheduled_tasks"));
      db.resetStatements();
      atStart.run();
      long start = System.nanoTime();
      peer.start(threads);
      Await.until("all handled", () -> peer.handled() >= count, Duration.ofMinutes(10), 1);
      Await.until("queue empty", () -> peer.remaining() == 0, Duration.ofMinutes(1), 2);
      long nanos = System.nanoTime() - start;
      peer.close();
      if (peer.handled() != count) {
        throw new IllegalStateException("db-scheduler ran " + peer.handled() + " of " + count);
      }
      return StatementReport.withStatements(
          Measurement.of(count, nanos), db, "db-scheduler drain threads=" + threads, count);
    }
  }
}
