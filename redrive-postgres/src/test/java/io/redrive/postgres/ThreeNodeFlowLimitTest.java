package io.redrive.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.QueuePolicy;
import io.redrive.testkit.TestDatabase;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three nodes (three engines, each with its own store and connection pool, and its own worker of 8
 * handler threads) drain 100 limit keys × 4 messages from one queue with {@code maxRunningPerKey =
 * 2} and {@code maxRunning = 10}, under load. Measured from inside the handlers: never more than 2
 * of one key nor 10 in all run at once, and every key finishes (none starved).
 */
class ThreeNodeFlowLimitTest {
  private static final int KEYS = 100;
  private static final int PER_KEY = 4;

  @Test
  @Timeout(120)
  void caps_neverExceeded_acrossThreeNodes_andEveryKeyFinishes() throws Exception {
    try (TestDatabase db = PostgresFixture.INSTANCE.newDatabase()) {
      List<Redrive> nodes = new ArrayList<>();
      for (int n = 0; n < 3; n++) {
        nodes.add(Redrive.builder(db.openStore()).build());
      }
      nodes
          .get(0)
          .createQueue(
              "tenants", QueuePolicy.defaults().withLimits(new FlowLimits(10, 2, null, null)));
      List<NewMessage> batch = new ArrayList<>();
      // Key by key, so a key's messages queue up together and press against its cap.
      for (int k = 0; k < KEYS; k++) {
        for (int m = 0; m < PER_KEY; m++) {
          batch.add(
              NewMessage.builder("tenants", "work")
                  .payload("{\"key\":" + k + "}")
                  .limitKey("tenant-" + k)
                  .build());
        }
      }
      nodes.get(1).enqueueBatch(batch);

      Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
      Map<String, AtomicInteger> done = new ConcurrentHashMap<>();
      AtomicInteger total = new AtomicInteger();
      AtomicInteger maxPerKey = new AtomicInteger();
      AtomicInteger maxTotal = new AtomicInteger();
      AtomicInteger completed = new AtomicInteger();
      List<Worker> workers = new ArrayList<>();
      for (int n = 0; n < 3; n++) {
        Worker worker =
            Worker.builder(nodes.get(n), "tenants")
                .id("node-" + n)
                .concurrency(8)
                .pollInterval(Duration.ofMillis(2), Duration.ofMillis(20))
                .handler(
                    "work",
                    ctx -> {
                      String key = ctx.message().payload(); // one payload per key
                      int mine =
                          running.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
                      maxPerKey.accumulateAndGet(mine, Math::max);
                      maxTotal.accumulateAndGet(total.incrementAndGet(), Math::max);
                      try {
                        Thread.sleep(3); // the work: long enough for leases to overlap
                      } finally {
                        total.decrementAndGet();
                        running.get(key).decrementAndGet();
                      }
                      done.computeIfAbsent(key, x -> new AtomicInteger()).incrementAndGet();
                      completed.incrementAndGet();
                      return HandlerResult.complete();
                    })
                .build();
        workers.add(worker);
      }
      long started = System.nanoTime();
      workers.forEach(Worker::start);
      try {
        Awaitility.await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> completed.get() >= KEYS * PER_KEY);
      } finally {
        workers.forEach(w -> w.stop(Duration.ofSeconds(5)));
      }
      long tookMs = (System.nanoTime() - started) / 1_000_000;
      System.out.printf(
          "three nodes drained %d messages of %d keys in %d ms: most running of one key %d (cap"
              + " 2), most running in all %d (cap 10)%n",
          completed.get(), KEYS, tookMs, maxPerKey.get(), maxTotal.get());

      assertThat(maxPerKey.get()).as("most running of one key").isBetween(1, 2);
      assertThat(maxTotal.get()).as("most running in the queue").isBetween(1, 10);
      assertThat(done).as("keys that finished").hasSize(KEYS);
      assertThat(done.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(PER_KEY));
      assertThat(nodes.get(0).stats("tenants").ready()).isZero();
    }
  }
}
