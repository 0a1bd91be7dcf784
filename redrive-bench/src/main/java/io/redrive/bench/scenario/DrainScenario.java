package io.redrive.bench.scenario;

import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Target;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Scenario 2: a prefilled backlog worked off by W workers leasing B at a time. */
public final class DrainScenario implements Scenario {
  private final Sizes sizes;

  public DrainScenario(Sizes sizes) {
    this.sizes = sizes;
  }

  @Override
  public String name() {
    return "drain";
  }

  @Override
  public String title() {
    return "2. Drain";
  }

  @Override
  public String about() {
    return "A backlog (enqueued through Redrive, then `ANALYZE`d) worked off by W `Worker`s"
        + " (on PostgreSQL each its own store and pool, i.e. a node) with batchSize ="
        + " concurrency = B and a no-op handler: lease, run, complete. Timed from start until the"
        + " queue is empty. Backlog: "
        + sizes.drainCount(1)
        + " / "
        + sizes.drainCount(10)
        + " / "
        + sizes.drainCount(100)
        + " at B = 1 / 10 / 100. Baseline: `fill.sql`, then W JDBC clients running `cycle.sql`"
        + " with n = B until nothing is ready.";
  }

  @Override
  public List<Cell> cells(Target target) {
    List<Cell> cells = new ArrayList<>();
    for (int batch : sizes.leaseBatches()) {
      for (int workers : sizes.workers()) {
        cells.add(new DrainCell(target, workers, batch, sizes.drainCount(batch)));
      }
    }
    return cells;
  }

  /** Redrive's drain of {@code count} no-op messages; shared with the failure path's reference. */
  static Measurement drainOurs(Target target, int workers, int batch, int count) throws Exception {
    return drainOurs(target, workers, batch, batch, count, () -> {});
  }

  /**
   * Redrive's drain of {@code count} no-op messages by {@code workers} nodes, each one worker of
   * {@code concurrency} handlers leasing {@code batch} at a time; {@code atStart} runs once the
   * backlog is in, just before the workers start and the timing with them.
   */
  static Measurement drainOurs(
      Target target, int workers, int concurrency, int batch, int count, Runnable atStart)
      throws Exception {
    return drainOurs(target, workers, concurrency, batch, count, QueueFeature.NONE, atStart);
  }

  /** As above, on a queue and a backlog that use {@code feature}. */
  static Measurement drainOurs(
      Target target,
      int workers,
      int concurrency,
      int batch,
      int count,
      QueueFeature feature,
      Runnable atStart)
      throws Exception {
    try (BenchDatabase db = target.newDatabase();
        Nodes nodes = Nodes.open(target, db, workers, 4)) {
      nodes.createQueue(feature.policy());
      nodes.prefill(count, feature::message);
      db.analyze(List.of("redrive_messages"));
      AtomicLong handled = new AtomicLong();
      db.resetStatements();
      atStart.run();
      long start = System.nanoTime();
      nodes.startWorkers(
          concurrency,
          batch,
          Map.of(
              Nodes.TYPE,
              ctx -> {
                handled.incrementAndGet();
                return HandlerResult.complete();
              }));
      Await.until("all handled", () -> handled.get() >= count, Duration.ofMinutes(10), 1);
      Await.until("queue empty", () -> nodes.remaining() == 0, Duration.ofMinutes(1), 2);
      long nanos = System.nanoTime() - start;
      nodes.stopWorkers();
      return StatementReport.withStatements(
          Measurement.of(count, nanos),
          db,
          "ours drain workers=" + workers + " batch=" + batch,
          count);
    }
  }

  private record DrainCell(Target target, int workers, int batch, int count) implements Cell {
    @Override
    public String params() {
      return "workers=" + workers + " batch=" + batch;
    }

    @Override
    public String oursLabel() {
      return "Worker (lease, run, complete)";
    }

    @Override
    public String baselineLabel() {
      return "cycle.sql";
    }

    @Override
    public Measurement runOurs() throws Exception {
      return drainOurs(target, workers, batch, count);
    }

    @Override
    public Measurement runBaseline() throws Exception {
      try (BenchDatabase db = target.newDatabase()) {
        return RawDrain.run(db, count, workers, batch, () -> {});
      }
    }
  }
}
