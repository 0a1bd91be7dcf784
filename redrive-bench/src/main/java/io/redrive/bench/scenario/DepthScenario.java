package io.redrive.bench.scenario;

import io.redrive.Redrive;
import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Payload;
import io.redrive.bench.contender.RawQueue;
import io.redrive.bench.contender.Target;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeaseResult;
import io.redrive.queue.QueuePolicy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 5: single-message lease and complete latency with a deep backlog, plus scheduled and
 * dead messages beside it. It must stay flat as the backlog grows.
 */
public final class DepthScenario implements Scenario {
  private final Sizes sizes;

  public DepthScenario(Sizes sizes) {
    this.sizes = sizes;
  }

  @Override
  public String name() {
    return "depth";
  }

  @Override
  public String title() {
    return "5. Depth";
  }

  @Override
  public String about() {
    return "N ready messages plus N/10 scheduled (an hour ahead) and N/10 dead beside them,"
        + " bulk-inserted with SQL and `ANALYZE`d; then one thread runs "
        + sizes.depthOps()
        + " single-message `lease(max=1)` + `complete` cycles (fewer when N/10 is smaller)."
        + " The figure is cycles/s; details give lease and cycle latency p50/p99 in ms."
        + " Baseline: `fill.sql` with the same scheduled and dead rows, then `cycle.sql` with"
        + " n = 1. Unlike the other scenarios, the filled database is kept across the"
        + " repetitions of a cell (each consumes its share of the backlog).";
  }

  @Override
  public List<Cell> cells(Target target) {
    List<Cell> cells = new ArrayList<>();
    for (long n : sizes.depthSizes()) {
      cells.add(new DepthCell(target, n, (int) Math.min(sizes.depthOps(), Math.max(1, n / 10))));
    }
    return cells;
  }

  private static final class DepthCell implements Cell {
    private final Target target;
    private final long ready;
    private final int ops;
    private BenchDatabase oursDb;
    private Redrive engine;
    private BenchDatabase rawDb;
    private Connection rawConnection;
    private RawQueue.Consumer rawConsumer;

    DepthCell(Target target, long ready, int ops) {
      this.target = target;
      this.ready = ready;
      this.ops = ops;
    }

    @Override
    public String params() {
      return String.format("ready=%,d (+%,d scheduled, +%,d dead)", ready, ready / 10, ready / 10);
    }

    @Override
    public String oursLabel() {
      return "lease(max=1) + complete";
    }

    @Override
    public String baselineLabel() {
      return "cycle.sql n=1";
    }

    @Override
    public String unit() {
      return "cycles/s";
    }

    @Override
    public Measurement runOurs() {
      if (engine == null) {
        oursDb = target.newDatabase();
        engine = Redrive.builder(oursDb.openStore(2)).build();
        engine.createQueue(Nodes.QUEUE, QueuePolicy.defaults());
        oursDb.fillMessages(Nodes.QUEUE, Nodes.TYPE, Payload.JSON, ready, ready / 10, ready / 10);
        oursDb.analyze(List.of("redrive_messages"));
      }
      Latencies lease = new Latencies();
      Latencies cycle = new Latencies();
      LeaseRequest request = LeaseRequest.of(Nodes.QUEUE, "depth", 1);
      long start = System.nanoTime();
      for (int i = 0; i < ops; i++) {
        long t0 = System.nanoTime();
        LeaseResult r = engine.lease(request);
        long t1 = System.nanoTime();
        if (r.leased().isEmpty()) {
          throw new IllegalStateException("the backlog ran dry after " + i + " leases");
        }
        engine.complete(r.leased().get(0).token());
        long t2 = System.nanoTime();
        lease.add(t1 - t0);
        cycle.add(t2 - t0);
      }
      long nanos = System.nanoTime() - start;
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("lease p50 ms", lease.percentileMillis(50));
      details.put("lease p99 ms", lease.percentileMillis(99));
      details.put("cycle p50 ms", cycle.percentileMillis(50));
      details.put("cycle p99 ms", cycle.percentileMillis(99));
      return new Measurement(Measurement.perSecond(ops, nanos), details, List.of());
    }

    @Override
    public Measurement runBaseline() throws Exception {
      if (rawConsumer == null) {
        rawDb = target.newDatabase();
        rawConnection = rawDb.connect();
        RawQueue raw = rawDb.raw();
        raw.createSchema(rawConnection);
        raw.fill(rawConnection, ready, ready / 10, ready / 10);
        rawConsumer = raw.consumer(rawConnection, 1, 1);
      }
      Latencies cycle = new Latencies();
      long start = System.nanoTime();
      for (int i = 0; i < ops; i++) {
        long t0 = System.nanoTime();
        if (rawConsumer.cycle() != 1) {
          throw new IllegalStateException("the baseline backlog ran dry after " + i + " cycles");
        }
        cycle.add(System.nanoTime() - t0);
      }
      long nanos = System.nanoTime() - start;
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("cycle p50 ms", cycle.percentileMillis(50));
      details.put("cycle p99 ms", cycle.percentileMillis(99));
      return new Measurement(Measurement.perSecond(ops, nanos), details, List.of());
    }

    @Override
    public void close() {
      if (engine != null) {
        engine.close();
      }
      if (oursDb != null) {
        oursDb.close();
      }
      try {
        if (rawConnection != null) {
          rawConnection.close();
        }
      } catch (java.sql.SQLException e) {
        // closing anyway
      }
      if (rawDb != null) {
        rawDb.close();
      }
    }
  }
}
