package io.redrive.bench.scenario;

import io.redrive.Redrive;
import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.RawQueue;
import io.redrive.bench.contender.Target;
import io.redrive.message.NewMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Scenario 1: P producers enqueue, one message or 100 per transaction. */
public final class EnqueueScenario implements Scenario {
  private final Sizes sizes;

  public EnqueueScenario(Sizes sizes) {
    this.sizes = sizes;
  }

  @Override
  public String name() {
    return "enqueue";
  }

  @Override
  public String title() {
    return "1. Enqueue";
  }

  @Override
  public String about() {
    return "P producer threads, each with its own engine over one store (one pool), call"
        + " `Redrive.enqueue` (batch=1) or `enqueueBatch` of 100 (batch=100) until "
        + sizes.enqueueSingle()
        + " / "
        + sizes.enqueueBatch()
        + " messages are in. Baseline: the same number of JDBC clients running `enq1.sql`"
        + " (or its 100-row `VALUES` form) as a prepared statement.";
  }

  @Override
  public List<Cell> cells(Target target) {
    List<Cell> cells = new ArrayList<>();
    for (int batch : List.of(1, 100)) {
      for (int producers : sizes.producers()) {
        cells.add(
            new EnqueueCell(
                target,
                producers,
                batch,
                batch == 1 ? sizes.enqueueSingle() : sizes.enqueueBatch()));
      }
    }
    return cells;
  }

  /**
   * Redrive's enqueue of {@code count} messages by {@code producers} threads, each with its own
   * engine over one store, {@code batch} per call; {@code atStart} runs once the store is open and
   * the queue created, just before the timing starts.
   */
  static Measurement enqueueOurs(
      Target target, int producers, int batch, int count, Runnable atStart) throws Exception {
    return enqueueOurs(target, producers, batch, count, QueueFeature.NONE, atStart);
  }

  /** As above, into a queue and with messages that use {@code feature}. */
  static Measurement enqueueOurs(
      Target target, int producers, int batch, int count, QueueFeature feature, Runnable atStart)
      throws Exception {
    try (BenchDatabase db = target.newDatabase();
        Nodes nodes = Nodes.open(target, db, 1, producers + 2)) {
      nodes.createQueue(feature.policy());
      AtomicLong next = new AtomicLong();
      List<Redrive> engines = new ArrayList<>();
      for (int i = 0; i < producers; i++) {
        engines.add(Redrive.builder(nodes.store(0)).build());
      }
      List<NewMessage> many = Collections.nCopies(batch, Nodes.MESSAGE);
      atStart.run();
      long nanos =
          Parallel.run(
              producers,
              p -> {
                Redrive r = engines.get(p);
                for (int i = Parallel.share(count / batch, producers, p); i > 0; i--) {
                  if (feature != QueueFeature.NONE && batch == 1) {
                    r.enqueue(feature.message(next.getAndIncrement()));
                  } else if (feature != QueueFeature.NONE) {
                    List<NewMessage> own = new ArrayList<>(batch);
                    for (int m = 0; m < batch; m++) {
                      own.add(feature.message(next.getAndIncrement()));
                    }
                    r.enqueueBatch(own);
                  } else if (batch == 1) {
                    r.enqueue(Nodes.MESSAGE);
                  } else {
                    r.enqueueBatch(many);
                  }
                }
              });
      return Measurement.of(count / batch * (long) batch, nanos);
    }
  }

  /**
   * The baseline's enqueue: {@code producers} JDBC clients running {@code enq1.sql} with {@code
   * batch} rows per statement; {@code atStart} runs once they are connected.
   */
  static Measurement enqueueBaseline(
      Target target, int producers, int batch, int count, Runnable atStart) throws Exception {
    try (BenchDatabase db = target.newDatabase()) {
      RawQueue raw = RawClients.createSchema(db, 0);
      try (RawClients<RawQueue.Producer> clients =
          RawClients.open(db, producers, (c, i) -> raw.producer(c, batch))) {
        long nanos =
            clients.run(
                atStart,
                (producer, p) -> {
                  for (int i = Parallel.share(count / batch, producers, p); i > 0; i--) {
                    producer.insert();
                  }
                });
        return Measurement.of(count / batch * (long) batch, nanos);
      }
    }
  }

  private record EnqueueCell(Target target, int producers, int batch, int count) implements Cell {

    @Override
    public String params() {
      return "producers=" + producers + " batch=" + batch;
    }

    @Override
    public String oursLabel() {
      return batch == 1 ? "Redrive.enqueue" : "Redrive.enqueueBatch";
    }

    @Override
    public String baselineLabel() {
      return batch == 1 ? "enq1.sql" : "enq1.sql, 100 VALUES";
    }

    @Override
    public Measurement runOurs() throws Exception {
      return enqueueOurs(target, producers, batch, count, () -> {});
    }

    @Override
    public Measurement runBaseline() throws Exception {
      return enqueueBaseline(target, producers, batch, count, () -> {});
    }
  }
}
