package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.message.HistoryEntry;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.QueueStats;
import io.redrive.store.Store;
import io.redrive.testkit.fault.InterceptedStore;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Promises 1–5 under load: healthy, flaky and poison messages mixed on one queue, run by two
 * workers. Nothing is lost, nothing completes twice, flaky messages succeed on their third
 * delivery, poison ones die with their story, and they do not hold up the healthy ones.
 */
public abstract class MixedLoadScenarios extends WorkerScenarioBase {
  private static final int TOTAL = 300;

  @Test
  void mixedLoad_healthyFlakyAndPoison_everyMessageEndsRightExactlyOnce() {
    // A long lease so that a slow machine never sees a lease expiry (which would be a legal
    // redelivery, but would blur the exactly-once counts this scenario checks).
    createQueue(
        QueuePolicy.defaults().withRetry(3, COOLDOWN).withLeaseTimeout(Duration.ofSeconds(5)));
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < TOTAL; i++) {
      String type = i % 10 == 3 ? "poison" : i % 10 == 7 ? "flaky" : "healthy";
      batch.add(NewMessage.builder(QUEUE, type).payload("{\"n\":" + i + "}").build());
    }
    Map<String, List<String>> idsByType = new ConcurrentHashMap<>();
    for (int from = 0; from < TOTAL; from += 100) {
      List<NewMessage> chunk = batch.subList(from, from + 100);
      var results = redrive.enqueueBatch(chunk);
      for (int i = 0; i < chunk.size(); i++) {
        String id = results.get(i).id();
        idsByType.computeIfAbsent(chunk.get(i).type(), t -> new ArrayList<>()).add(id);
      }
    }
    Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> completions = new ConcurrentHashMap<>();
    Handler healthy =
        ctx -> {
          count(deliveries, ctx.id());
          count(completions, ctx.id());
          return HandlerResult.complete();
        };
    Handler flaky =
        ctx -> {
          count(deliveries, ctx.id());
          if (ctx.attempt() < 3) {
            throw new IllegalStateException("flaky on attempt " + ctx.attempt());
          }
          count(completions, ctx.id());
          return HandlerResult.complete();
        };
    Handler poison =
        ctx -> {
          count(deliveries, ctx.id());
          throw new IllegalStateException("always fails");
        };

    for (int i = 0; i < 2; i++) {
      start(
          worker()
              .concurrency(8)
              .handler("healthy", healthy)
              .handler("flaky", flaky)
              .handler("poison", poison));
    }

    List<String> poisonIds = idsByType.get("poison");
    eventually()
        .until(
            () -> {
              QueueStats s = redrive.stats(QUEUE);
              return s.total() == poisonIds.size() && s.dead() == poisonIds.size();
            });
    for (String id : idsByType.get("healthy")) {
      assertThat(deliveries.get(id)).as("deliveries of healthy %s", id).hasValue(1);
      assertThat(completions.get(id)).as("completions of healthy %s", id).hasValue(1);
    }
    for (String id : idsByType.get("flaky")) {
      assertThat(deliveries.get(id)).as("deliveries of flaky %s", id).hasValue(3);
      assertThat(completions.get(id)).as("completions of flaky %s", id).hasValue(1);
      assertThat(isCompleted(id)).isTrue();
    }
    for (String id : poisonIds) {
      Message dead = message(id);
      assertThat(dead.state()).isEqualTo(MessageState.DEAD);
      assertThat(dead.deadReason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
      assertThat(dead.history())
          .extracting(HistoryEntry::outcome)
          .containsExactly(Outcome.FAILED, Outcome.FAILED, Outcome.FAILED);
      assertThat(deliveries.get(id)).as("deliveries of poison %s", id).hasValue(3);
      assertThat(completions).doesNotContainKey(id);
    }
    assertThat(completions).hasSize(TOTAL - poisonIds.size());
    assertThat(completions.values()).allMatch(c -> c.get() == 1);
  }

  /**
   * Under a backlog the poller commits the settles queued meanwhile in its next lease's transaction
   * ({@code Redrive.settleThenLease}); every message still completes exactly once, and the settles
   * of the last batches, with no lease left to carry them, are committed too.
   */
  @Test
  void backlog_settlesRideWithTheNextLease_everyMessageCompletesOnce() {
    int n = 400;
    createQueue(QueuePolicy.defaults().withLeaseTimeout(Duration.ofSeconds(30)));
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(NewMessage.builder(QUEUE, TYPE).payload("{\"n\":" + i + "}").build());
    }
    redrive.enqueueBatch(batch);
    AtomicInteger carried = new AtomicInteger();
    Store counting =
        InterceptedStore.of(
            store,
            method -> {
              if (method.equals("settleThenLease")) {
                carried.incrementAndGet();
              }
            });
    Redrive engine = Redrive.builder(counting).meterRegistry(meters).build();
    Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
    start(
        worker(engine, QUEUE)
            .concurrency(8)
            .batchSize(4)
            .handler(
                TYPE,
                ctx -> {
                  count(runs, ctx.id());
                  return HandlerResult.complete();
                }));

    eventually().until(() -> redrive.stats(QUEUE).total() == 0);
    assertThat(runs).hasSize(n);
    assertThat(runs.values()).allMatch(c -> c.get() == 1);
    assertThat(carried.get()).as("leases that carried settles").isPositive();
  }

  /**
   * Handler threads take leased runs from a queue (a quick handler's thread takes the next run
   * itself); a handler that blocks must still never hold up a run leased with it. Each handler here
   * waits until every message of the batch has started, which only works when all run at once.
   */
  @Test
  void blockedHandlers_neverHoldUpTheRunsLeasedWithThem() {
    int n = 32;
    createQueue(QueuePolicy.defaults().withLeaseTimeout(Duration.ofSeconds(30)));
    List<NewMessage> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(NewMessage.builder(QUEUE, "together").payload("{\"n\":" + i + "}").build());
    }
    redrive.enqueueBatch(batch);
    CountDownLatch started = new CountDownLatch(n);
    Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    Handler together =
        ctx -> {
          count(deliveries, ctx.id());
          started.countDown();
          if (!started.await(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("a run of the batch never started while this waited");
          }
          return HandlerResult.complete();
        };
    start(worker().concurrency(n).batchSize(n).handler("together", together));

    eventually().until(() -> redrive.stats(QUEUE).total() == 0);
    assertThat(deliveries).hasSize(n);
    assertThat(deliveries.values()).allMatch(d -> d.get() == 1);
  }

  private static void count(Map<String, AtomicInteger> counts, String id) {
    counts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
  }
}
