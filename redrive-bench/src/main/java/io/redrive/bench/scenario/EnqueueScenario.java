package io.redrive.bench.scenario;

import io.redrive.Redrive;
import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.RawQueue;
import io.redrive.bench.contender.Target;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

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
      try (BenchDatabase db = target.newDatabase();
          Nodes nodes = Nodes.open(target, db, 1, producers + 2)) {
        nodes.createQueue(QueuePolicy.defaults());
        List<Redrive> engines = new ArrayList<>();
        for (int i = 0; i < producers; i++) {
          engines.add(Redrive.builder(nodes.store(0)).build());
        }
        List<NewMessage> hundred = Collections.nCopies(batch, Nodes.MESSAGE);
        long nanos =
            Parallel.run(
                producers,
                p -> {
                  Redrive r = engines.get(p);
                  int calls = Parallel.share(count / batch, producers, p);
                  for (int i = 0; i < calls; i++) {
                    if (batch == 1) {
                      r.enqueue(Nodes.MESSAGE);
                    } else {
                      r.enqueueBatch(hundred);
                    }
                  }
                });
        return Measurement.of(count / batch * (long) batch, nanos);
      }
    }

    @Override
    public Measurement runBaseline() throws Exception {
      try (BenchDatabase db = target.newDatabase()) {
        RawQueue raw = db.raw();
        try (Connection c = db.connect()) {
          raw.createSchema(c);
        }
        List<Connection> connections = new ArrayList<>();
        List<RawQueue.Producer> clients = new ArrayList<>();
        try {
          for (int i = 0; i < producers; i++) {
            Connection c = db.connect();
            connections.add(c);
            clients.add(raw.producer(c, batch));
          }
          long nanos =
              Parallel.run(
                  producers,
                  p -> {
                    RawQueue.Producer producer = clients.get(p);
                    int calls = Parallel.share(count / batch, producers, p);
                    for (int i = 0; i < calls; i++) {
                      producer.insert();
                    }
                  });
          return Measurement.of(count / batch * (long) batch, nanos);
        } finally {
          for (Connection c : connections) {
            c.close();
          }
        }
      }
    }
  }
}
