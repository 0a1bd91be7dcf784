package io.redrive.bench.scenario;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redrive.Redrive;
import io.redrive.bench.contender.BenchDatabase;
import io.redrive.bench.contender.Payload;
import io.redrive.bench.contender.Target;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.Store;
import io.redrive.worker.Handler;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Redrive's side of one run: {@code count} engines over one database. On PostgreSQL each has its
 * own store (a node with its own pool, as separate processes would); on SQLite they share one
 * store, because a file has one writer per process anyway.
 */
public final class Nodes implements AutoCloseable {
  static final String QUEUE = "bench";
  static final String TYPE = "bench";
  static final NewMessage MESSAGE = NewMessage.builder(QUEUE, TYPE).payload(Payload.JSON).build();

  /** The engines' completion window (the engine's default unless the command line sets it). */
  private static volatile Duration completionWindow = Redrive.DEFAULT_COMPLETION_WINDOW;

  /** Sets the completion window of the engines made from now on (a command-line option). */
  public static void setCompletionWindow(Duration value) {
    completionWindow = value;
  }

  private final List<Store> stores = new ArrayList<>();
  private final List<Redrive> engines = new ArrayList<>();
  private final List<Worker> workers = Collections.synchronizedList(new ArrayList<>());

  private Nodes(Target target, BenchDatabase db, int count, int poolPerNode) {
    boolean storePerNode = "postgres".equals(target.name());
    for (int i = 0; i < count; i++) {
      if (storePerNode || stores.isEmpty()) {
        stores.add(db.openStore(storePerNode ? poolPerNode : poolPerNode * count + 2));
      }
      engines.add(
          Redrive.builder(stores.get(stores.size() - 1))
              .completionWindow(completionWindow)
              .build());
    }
  }

  static Nodes open(Target target, BenchDatabase db, int count, int poolPerNode) {
    return new Nodes(target, db, count, poolPerNode);
  }

  Redrive engine(int i) {
    return engines.get(i);
  }

  /** The store node {@code i}'s engine runs over (on SQLite the one all nodes share). */
  Store store(int i) {
    return stores.get(stores.size() == 1 ? 0 : i);
  }

  int size() {
    return engines.size();
  }

  void createQueue(QueuePolicy policy) {
    engines.get(0).createQueue(QUEUE, policy);
  }

  /** Enqueues {@code count} messages made by {@code message(i)}, 500 per transaction. */
  void prefill(int count, IntFunction<NewMessage> message) {
    List<NewMessage> batch = new ArrayList<>(500);
    for (int i = 0; i < count; i++) {
      batch.add(message.apply(i));
      if (batch.size() == 500 || i == count - 1) {
        engines.get(0).enqueueBatch(batch);
        batch.clear();
      }
    }
  }

  /**
   * Starts one worker per node: lease batch = concurrency = {@code batch}, polling from 1 ms up to
   * 20 ms when idle, no depth gauge, a private meter registry.
   */
  void startWorkers(int batch, Map<String, Handler> handlers) {
    startWorkers(batch, batch, handlers);
  }

  /**
   * As {@link #startWorkers(int, Map)}, with {@code concurrency} handlers leasing {@code batch}.
   */
  void startWorkers(int concurrency, int batch, Map<String, Handler> handlers) {
    for (int i = 0; i < engines.size(); i++) {
      Worker.Builder b =
          Worker.builder(engines.get(i), QUEUE)
              .id("bench-" + i)
              .concurrency(concurrency)
              .batchSize(batch)
              .pollInterval(Duration.ofMillis(1), Duration.ofMillis(20))
              .queueDepthInterval(Duration.ZERO)
              .meterRegistry(new SimpleMeterRegistry());
      handlers.forEach(b::handler);
      workers.add(b.build());
    }
    for (Worker w : workers) {
      w.start();
    }
  }

  /** Messages still in the queue (any state). */
  long remaining() {
    return engines.get(0).stats(QUEUE).total();
  }

  void stopWorkers() {
    for (Worker w : workers) {
      w.stop(Duration.ofSeconds(10));
    }
    workers.clear();
  }

  @Override
  public void close() {
    stopWorkers();
    for (Store s : stores) {
      s.close();
    }
  }
}
