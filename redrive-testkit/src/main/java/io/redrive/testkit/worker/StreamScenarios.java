package io.redrive.testkit.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.failure.FailureReason;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.StreamPolicy;
import io.redrive.worker.HandlerContext;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Streams end to end: a stream's messages run one at a time in enqueue order across concurrent
 * workers; when the head fails the rest of its run is released (attempts refunded) and the queue's
 * stream policy decides whether later messages wait (HOLD, HALT) or go ahead (RELEASE).
 */
public abstract class StreamScenarios extends WorkerScenarioBase {
  private static final String S = "customer-1";
  private static final Duration HEAD_RETRY_AFTER = Duration.ofMillis(800);

  private static QueuePolicy policy(StreamPolicy streamPolicy) {
    return QueuePolicy.defaults()
        .withRetry(3, COOLDOWN)
        .withLeaseTimeout(Duration.ofSeconds(5))
        .withStreamPolicy(streamPolicy);
  }

  private List<String> enqueueStream(String stream, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(enqueueInStream(TYPE, stream, stream + "#" + i));
    }
    return ids;
  }

  /** A delivery as a handler saw it: which message, which attempt. */
  private static String seen(HandlerContext ctx) {
    return ctx.payload() + "@" + ctx.attempt();
  }

  @Test
  void streams_manyWorkersHighConcurrency_eachStreamRunsOneAtATimeInOrder() {
    createQueue(policy(StreamPolicy.HOLD));
    int streams = 4;
    int perStream = 15;
    Map<String, List<String>> expected = new ConcurrentHashMap<>();
    for (int i = 0; i < perStream; i++) {
      for (int s = 0; s < streams; s++) {
        String stream = "s" + s;
        enqueueInStream(TYPE, stream, stream + "#" + i);
        expected.computeIfAbsent(stream, k -> new ArrayList<>()).add(stream + "#" + i);
      }
    }
    List<String> plain = enqueueMany("plain", 20);
    Map<String, List<String>> order = new ConcurrentHashMap<>();
    Map<String, AtomicInteger> runningPerStream = new ConcurrentHashMap<>();
    AtomicInteger overlaps = new AtomicInteger();

    for (int w = 0; w < 3; w++) {
      start(
          worker()
              .concurrency(8)
              .handler(
                  TYPE,
                  ctx -> {
                    AtomicInteger running =
                        runningPerStream.computeIfAbsent(
                            ctx.message().stream(), k -> new AtomicInteger());
                    if (running.incrementAndGet() > 1) {
                      overlaps.incrementAndGet();
                    }
                    try {
                      order
                          .computeIfAbsent(
                              ctx.message().stream(), k -> new CopyOnWriteArrayList<>())
                          .add(ctx.payload());
                      Thread.sleep(2); // give another worker the chance to overtake, if it could
                      return HandlerResult.complete();
                    } finally {
                      running.decrementAndGet();
                    }
                  })
              .handler("plain", ctx -> HandlerResult.complete()));
    }

    eventually().until(() -> redrive.stats(QUEUE).total() == 0);
    assertThat(overlaps).hasValue(0);
    assertThat(order).isEqualTo(expected);
    assertThat(plain).allMatch(this::isCompleted);
  }

  /**
   * Starts a worker on a stream whose head asks to be retried after {@link #HEAD_RETRY_AFTER} on
   * its first attempt; returns the deliveries in the order the handler saw them.
   */
  private List<String> startWithFailingHead(List<String> ids) {
    List<String> seen = new CopyOnWriteArrayList<>();
    start(
        worker()
            .concurrency(4)
            .handler(
                TYPE,
                ctx -> {
                  seen.add(seen(ctx));
                  if (ctx.id().equals(ids.get(0)) && ctx.attempt() == 1) {
                    return HandlerResult.retryAfter(HEAD_RETRY_AFTER, "not yet");
                  }
                  return HandlerResult.complete();
                }));
    return seen;
  }

  @Test
  void hold_headFails_restOfRunReleasedRefundedAndWaitsForHeadRetry() {
    createQueue(policy(StreamPolicy.HOLD));
    List<String> ids = enqueueStream(S, 4);

    List<String> seen = startWithFailingHead(ids);

    // While the head waits for its retry, the rest of its run is back, unleased, attempts refunded.
    eventually()
        .until(
            () ->
                find(ids.get(3))
                    .map(
                        m ->
                            m.state() == MessageState.READY
                                && m.history().stream()
                                    .anyMatch(e -> e.outcome() == Outcome.RELEASED))
                    .orElse(false));
    for (String id : ids.subList(1, ids.size())) {
      Message released = message(id);
      assertThat(released.state()).as("state of %s", id).isEqualTo(MessageState.READY);
      assertThat(released.attempts()).isZero();
      assertThat(released.history()).extracting(e -> e.outcome()).containsExactly(Outcome.RELEASED);
    }
    awaitCompleted(ids);
    assertThat(seen).containsExactly(S + "#0@1", S + "#0@2", S + "#1@1", S + "#2@1", S + "#3@1");
  }

  @Test
  void release_headFails_laterMessagesGoAheadWhileHeadWaits() {
    createQueue(policy(StreamPolicy.RELEASE));
    List<String> ids = enqueueStream(S, 4);

    List<String> seen = startWithFailingHead(ids);

    awaitCompleted(ids);
    assertThat(seen).containsExactly(S + "#0@1", S + "#1@1", S + "#2@1", S + "#3@1", S + "#0@2");
  }

  @Test
  void halt_headDead_streamStopsUntilHeadRetriedThenResumesInOrder() {
    createQueue(policy(StreamPolicy.HALT));
    List<String> ids = enqueueStream(S, 3);
    List<String> seen = new CopyOnWriteArrayList<>();
    AtomicInteger headRuns = new AtomicInteger();
    Function<HandlerContext, HandlerResult> handle =
        ctx -> {
          seen.add(seen(ctx));
          if (ctx.id().equals(ids.get(0)) && headRuns.incrementAndGet() == 1) {
            return HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "ledger mismatch");
          }
          return HandlerResult.complete();
        };
    start(
        worker()
            .concurrency(4)
            .handler(TYPE, handle::apply)
            .handler("plain", ctx -> HandlerResult.complete()));

    awaitDead(ids.get(0));
    // A message enqueued after the head died is leased by a later poll; once it is done, any
    // leasable stream message would have been leased too.
    String after = enqueue("plain");
    awaitCompleted(after);
    for (String id : ids.subList(1, ids.size())) {
      Message waiting = message(id);
      assertThat(waiting.state()).as("state of %s", id).isEqualTo(MessageState.READY);
      assertThat(waiting.attempts()).isZero();
    }
    assertThat(seen).containsExactly(S + "#0@1");

    redrive.retry(ids.get(0));

    awaitCompleted(ids);
    assertThat(seen).containsExactly(S + "#0@1", S + "#0@1", S + "#1@1", S + "#2@1");
    assertThat(headRuns).hasValue(2);
  }
}
