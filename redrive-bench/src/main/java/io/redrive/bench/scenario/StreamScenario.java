package io.redrive.bench.scenario;

import io.redrive.bench.Check;
import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Payload;
import io.redrive.bench.contender.Target;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/** Scenario 6: messages spread over many streams, order checked per stream. */
public final class StreamScenario implements Scenario {
  private final Sizes sizes;

  public StreamScenario(Sizes sizes) {
    this.sizes = sizes;
  }

  @Override
  public String name() {
    return "streams";
  }

  @Override
  public String title() {
    return "6. Streams";
  }

  @Override
  public String about() {
    return sizes.streams()
        + " streams × "
        + sizes.perStream()
        + " messages, enqueued round-robin (so consecutive messages belong to different streams),"
        + " drained by 4 `Worker`s with lease batch B (stream policy HOLD). The handler checks"
        + " that each stream's sequence numbers arrive strictly in order with no gap or repeat."
        + " Baseline: `cycle.sql` draining as many rows with the same clients and n = B (no"
        + " ordering: the price of ordering shows in the ratio).";
  }

  @Override
  public List<Cell> cells(Target target) {
    List<Cell> cells = new ArrayList<>();
    for (int batch : sizes.failureBatches()) {
      cells.add(new StreamCell(target, 4, batch, sizes.streams(), sizes.perStream()));
    }
    return cells;
  }

  private record StreamCell(Target target, int workers, int batch, int streams, int perStream)
      implements Cell {
    @Override
    public String params() {
      return "workers=" + workers + " batch=" + batch + " streams=" + streams + "×" + perStream;
    }

    @Override
    public String oursLabel() {
      return "Worker, ordered streams";
    }

    @Override
    public String baselineLabel() {
      return "cycle.sql (unordered)";
    }

    @Override
    public Measurement runOurs() throws Exception {
      int count = streams * perStream;
      AtomicIntegerArray last = new AtomicIntegerArray(streams);
      for (int s = 0; s < streams; s++) {
        last.set(s, -1);
      }
      AtomicInteger outOfOrder = new AtomicInteger();
      AtomicLong handled = new AtomicLong();
      try (BenchDatabase db = target.newDatabase();
          Nodes nodes = Nodes.open(target, db, workers, 4)) {
        nodes.createQueue(QueuePolicy.defaults());
        nodes.prefill(
            count,
            i ->
                NewMessage.builder(Nodes.QUEUE, Nodes.TYPE).payload(Payload.JSON).stream(
                        "s" + (i % streams))
                    .headers(Map.of("n", Integer.toString(i / streams)))
                    .build());
        db.analyze(List.of("redrive_messages"));
        long start = System.nanoTime();
        nodes.startWorkers(
            batch,
            Map.of(
                Nodes.TYPE,
                ctx -> {
                  int stream = Integer.parseInt(ctx.message().stream().substring(1));
                  int n = Integer.parseInt(ctx.headers().get("n"));
                  if (!last.compareAndSet(stream, n - 1, n)) {
                    outOfOrder.incrementAndGet();
                  }
                  handled.incrementAndGet();
                  return HandlerResult.complete();
                }));
        Await.until("all handled", () -> handled.get() >= count, Duration.ofMinutes(10), 1);
        Await.until("queue empty", () -> nodes.remaining() == 0, Duration.ofMinutes(1), 2);
        long nanos = System.nanoTime() - start;
        nodes.stopWorkers();
        int complete = 0;
        for (int s = 0; s < streams; s++) {
          if (last.get(s) == perStream - 1) {
            complete++;
          }
        }
        Check order =
            new Check(
                "stream order",
                outOfOrder.get() == 0 && complete == streams && handled.get() == count,
                "out of order "
                    + outOfOrder.get()
                    + ", streams seen to the end "
                    + complete
                    + "/"
                    + streams
                    + ", handled "
                    + handled.get()
                    + "/"
                    + count);
        return new Measurement(Measurement.perSecond(count, nanos), Map.of(), List.of(order));
      }
    }

    @Override
    public Measurement runBaseline() throws Exception {
      try (BenchDatabase db = target.newDatabase()) {
        return RawDrain.run(db, streams * perStream, workers, batch, () -> {});
      }
    }
  }
}
