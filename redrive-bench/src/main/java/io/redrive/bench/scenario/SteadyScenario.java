package io.redrive.bench.scenario;

import io.redrive.bench.Measurement;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Payload;
import io.redrive.bench.contender.Target;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 3: producers at a fixed share of the measured end-to-end capacity for a while;
 * enqueue→start latency, backlog over time, and table size and dead tuples at the end.
 */
public final class SteadyScenario implements Scenario {
  private static final int WORKERS = 4;
  private static final int BATCH = 10;
  private static final int PRODUCERS = 2;

  /**
   * How often each producer enqueues what is due, in one transaction. At 1 ms the producers made
   * about 2 000 commits a second of one or two messages each, which with fsync on took most of the
   * database's capacity before any draining, so the "50 % of the drain rate" load was in fact an
   * overload; the latency measured starts when the batch is built, so the tick adds nothing to it.
   */
  private static final int TICK_MILLIS = 10;

  /**
   * Latency counts messages enqueued after this (at most a quarter of the run): the first seconds
   * measure class loading, JIT compilation and connection set-up, not the steady state.
   */
  private static final Duration WARM_UP = Duration.ofSeconds(5);

  /**
   * While the capacity is measured the producers hold off whenever this many messages wait: the
   * producers then enqueue just as fast as the workers take, so both sides' commits share the
   * database as they do in the steady state, and the backlog (which slows leasing) stays small.
   */
  private static final int CAPACITY_BACKLOG = 2_000;

  private final Sizes sizes;
  private final Map<String, Double> capacities = new ConcurrentHashMap<>();

  public SteadyScenario(Sizes sizes) {
    this.sizes = sizes;
  }

  @Override
  public String name() {
    return "steady";
  }

  @Override
  public String title() {
    return "3. Steady state";
  }

  @Override
  public String about() {
    return "First the end-to-end capacity C is measured: for "
        + sizes.steadyCalibration().toSeconds()
        + " s, "
        + PRODUCERS
        + " producers enqueue "
        + BATCH
        + " messages per transaction as fast as they can while at most "
        + CAPACITY_BACKLOG
        + " wait, and "
        + WORKERS
        + " workers with lease batch "
        + BATCH
        + " drain them; C is the rate of handled messages after the first quarter. Then the"
        + " same producers enqueue at 50 % and 80 % of C for "
        + sizes.steadySeconds().toSeconds()
        + " s (every "
        + TICK_MILLIS
        + " ms each producer enqueues what is due in one transaction) while the same workers"
        + " run."
        + " Latency is from just before the enqueue call to the handler's start (a header"
        + " carries the enqueue time), for messages enqueued after a "
        + WARM_UP.toSeconds()
        + " s warm-up; the longest gap between two handler starts after it shows a stall."
        + " Backlog (messages in the queue) is sampled every"
        + " second. Size is `pg_total_relation_size` of `redrive_messages` (SQLite: the whole"
        + " file), dead tuples from `pg_stat_user_tables` at the end. One run per cell; no"
        + " baseline (the raw SQL has no latency to compare).";
  }

  @Override
  public List<Cell> cells(Target target) {
    return List.of(new SteadyCell(target, 0.5), new SteadyCell(target, 0.8));
  }

  private double capacity(Target target) throws Exception {
    Double rate = capacities.get(target.name());
    if (rate == null) {
      rate = measureCapacity(target);
      capacities.put(target.name(), rate);
    }
    return rate;
  }

  /**
   * Producers and workers together, as in the steady state, with the producers held back only by
   * the backlog bound: a drain alone overstates the capacity, because in the steady state the
   * producers' commits share the database (on PostgreSQL, the WAL flushes) with the workers'.
   */
  private double measureCapacity(Target target) throws Exception {
    AtomicLong handled = new AtomicLong();
    AtomicLong enqueued = new AtomicLong();
    AtomicLong measuredFrom = new AtomicLong();
    AtomicLong handledAtFrom = new AtomicLong(-1);
    try (BenchDatabase db = target.newDatabase();
        Nodes nodes = Nodes.open(target, db, WORKERS, 4)) {
      nodes.createQueue(QueuePolicy.defaults());
      nodes.startWorkers(
          BATCH,
          Map.of(
              Nodes.TYPE,
              ctx -> {
                handled.incrementAndGet();
                return HandlerResult.complete();
              }));
      long start = System.nanoTime();
      long window = sizes.steadyCalibration().toNanos();
      long from = start + window / 4;
      long end = start + window;
      Parallel.run(
          PRODUCERS,
          p -> {
            while (true) {
              long now = System.nanoTime();
              if (now >= end) {
                return;
              }
              if (now >= from && handledAtFrom.get() < 0) {
                synchronized (handledAtFrom) {
                  if (handledAtFrom.get() < 0) {
                    measuredFrom.set(System.nanoTime());
                    handledAtFrom.set(handled.get());
                  }
                }
              }
              if (enqueued.get() - handled.get() >= CAPACITY_BACKLOG) {
                Thread.sleep(1);
                continue;
              }
              List<NewMessage> batch = new ArrayList<>(BATCH);
              for (int i = 0; i < BATCH; i++) {
                batch.add(
                    NewMessage.builder(Nodes.QUEUE, Nodes.TYPE)
                        .payload(Payload.JSON)
                        .headers(Map.of("t", "0"))
                        .build());
              }
              nodes.engine(p).enqueueBatch(batch);
              enqueued.addAndGet(BATCH);
            }
          });
      long measuredTo = System.nanoTime();
      long handledAtEnd = handled.get();
      nodes.stopWorkers();
      return Measurement.perSecond(
          handledAtEnd - handledAtFrom.get(), measuredTo - measuredFrom.get());
    }
  }

  private final class SteadyCell implements Cell {
    private final Target target;
    private final double share;

    SteadyCell(Target target, double share) {
      this.target = target;
      this.share = share;
    }

    @Override
    public String params() {
      return String.format(
          "rate=%d %% of capacity, %d s, workers=%d batch=%d",
          Math.round(share * 100), sizes.steadySeconds().toSeconds(), WORKERS, BATCH);
    }

    @Override
    public String oursLabel() {
      return "Redrive.enqueue + Worker";
    }

    @Override
    public String baselineLabel() {
      return null;
    }

    @Override
    public int reps(int requested) {
      return 1;
    }

    @Override
    public Measurement runBaseline() {
      throw new UnsupportedOperationException("steady state has no baseline");
    }

    @Override
    public Measurement runOurs() throws Exception {
      double capacity = capacity(this.target);
      double target = share * capacity;
      Latencies latency = new Latencies();
      AtomicLong handled = new AtomicLong();
      AtomicLong enqueued = new AtomicLong();
      // A stall shows as a long gap between handler starts (after the warm-up) at a load whose
      // messages arrive every few milliseconds.
      AtomicLong lastStart = new AtomicLong(System.nanoTime());
      AtomicLong longestGap = new AtomicLong();
      AtomicLong longestEnqueue = new AtomicLong();
      Latencies enqueueCalls = new Latencies();
      AtomicBoolean producing = new AtomicBoolean(true);
      AtomicLong measureFrom = new AtomicLong(Long.MAX_VALUE);
      List<List<Double>> backlog = new ArrayList<>();
      try (BenchDatabase db = this.target.newDatabase();
          Nodes nodes = Nodes.open(this.target, db, WORKERS, 4)) {
        nodes.createQueue(QueuePolicy.defaults());
        nodes.startWorkers(
            BATCH,
            Map.of(
                Nodes.TYPE,
                ctx -> {
                  long sentAt = Long.parseLong(ctx.headers().get("t"));
                  long now = System.nanoTime();
                  long gap = now - lastStart.getAndSet(now);
                  if (now >= measureFrom.get()) {
                    longestGap.accumulateAndGet(gap, Math::max);
                  }
                  if (sentAt >= measureFrom.get()) {
                    latency.add(System.nanoTime() - sentAt);
                  }
                  handled.incrementAndGet();
                  return HandlerResult.complete();
                }));
        long start = System.nanoTime();
        long end = start + sizes.steadySeconds().toNanos();
        measureFrom.set(start + Math.min(WARM_UP.toNanos(), sizes.steadySeconds().toNanos() / 4));
        Thread sampler =
            new Thread(
                () -> {
                  try {
                    while (producing.get()) {
                      Thread.sleep(1000);
                      double at = (System.nanoTime() - start) / 1e9;
                      backlog.add(List.of(round(at), (double) nodes.remaining()));
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "bench-backlog");
        sampler.start();
        double perProducer = target / PRODUCERS;
        long producedNanos =
            Parallel.run(
                PRODUCERS,
                p -> {
                  long sent = 0;
                  while (true) {
                    long now = System.nanoTime();
                    if (now >= end) {
                      return;
                    }
                    long due = (long) ((now - start) / 1e9 * perProducer) - sent;
                    if (due <= 0) {
                      Thread.sleep(TICK_MILLIS);
                      continue;
                    }
                    int n = (int) Math.min(100, due);
                    List<NewMessage> batch = new ArrayList<>(n);
                    String t = Long.toString(System.nanoTime());
                    for (int i = 0; i < n; i++) {
                      batch.add(
                          NewMessage.builder(Nodes.QUEUE, Nodes.TYPE)
                              .payload(Payload.JSON)
                              .headers(Map.of("t", t))
                              .build());
                    }
                    long called = System.nanoTime();
                    nodes.engine(p).enqueueBatch(batch);
                    long took = System.nanoTime() - called;
                    longestEnqueue.accumulateAndGet(took, Math::max);
                    if (called >= measureFrom.get()) {
                      enqueueCalls.add(took);
                    }
                    sent += n;
                    enqueued.addAndGet(n);
                  }
                });
        producing.set(false);
        sampler.join();
        Await.until(
            "steady backlog drained",
            () -> handled.get() >= enqueued.get() && nodes.remaining() == 0,
            Duration.ofMinutes(2),
            5);
        nodes.stopWorkers();
        Thread.sleep(1500); // PostgreSQL publishes table statistics at most once a second
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("capacity msgs/s", round(capacity));
        details.put("target msgs/s", round(target));
        details.put("latency p50 ms", round(latency.percentileMillis(50)));
        details.put("latency p95 ms", round(latency.percentileMillis(95)));
        details.put("latency p99 ms", round(latency.percentileMillis(99)));
        details.put("longest gap between starts ms", round(longestGap.get() / 1e6));
        details.put("enqueue call p50 ms", round(enqueueCalls.percentileMillis(50)));
        details.put("enqueue call p99 ms", round(enqueueCalls.percentileMillis(99)));
        details.put("longest enqueue call ms", round(longestEnqueue.get() / 1e6));
        details.put("backlog max", backlog.stream().mapToDouble(s -> s.get(1)).max().orElse(0));
        details.put(
            "backlog at end", backlog.isEmpty() ? 0.0 : backlog.get(backlog.size() - 1).get(1));
        details.put("table bytes", (double) db.tableBytes("redrive_messages"));
        details.put("dead tuples", (double) db.deadTuples("redrive_messages"));
        details.put("backlog samples [s, messages]", backlog);
        return new Measurement(
            Measurement.perSecond(enqueued.get(), producedNanos), details, List.of());
      }
    }
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
