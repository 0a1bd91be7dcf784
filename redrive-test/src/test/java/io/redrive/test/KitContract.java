package io.redrive.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.Redrive;
import io.redrive.error.QueueNotFoundException;
import io.redrive.failure.FailureReason;
import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.worker.HandlerResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The queue half of the test kit, run on each store by a subclass that chooses it. */
abstract class KitContract {

  static NewMessage msg(String queue, String type, String payload) {
    return NewMessage.builder(queue, type).payload(payload).build();
  }

  @Test
  void eachTestStartsEmptyAtTheClockStart(TestRedrive kit, Redrive engine, TestClock clock) {
    assertThat(engine.listQueues()).isEmpty();
    assertThat(clock.instant()).isEqualTo(TestRedrive.CLOCK_START);
    assertThat(kit.engine()).isSameAs(engine);
    assertThat(kit.clock()).isSameAs(clock);
    kit.queue("left.behind");
    clock.advance(Duration.ofHours(1));
  }

  @Test
  void assertEnqueuedFindsTheMessageByTypeAndPayloadPath(TestRedrive kit) {
    kit.queue("emails");
    kit.engine().enqueue(msg("emails", "welcome", "{\"user\":{\"id\":7,\"name\":\"Ann\"}}"));
    kit.engine().enqueue(msg("emails", "receipt", "{\"order\":{\"lines\":[{\"sku\":\"A-1\"}]}}"));

    Message m =
        kit.assertEnqueued(
            "emails",
            MessageMatcher.type("welcome").payload("$.user.id", 7).payload("$.user.name", "Ann"));
    assertThat(m.type()).isEqualTo("welcome");
    kit.assertEnqueued("emails", MessageMatcher.any().payload("$.order.lines[0].sku", "A-1"));
    kit.assertEnqueued("emails", MessageMatcher.any(), 2);
  }

  @Test
  void aFailedAssertionTellsWhatTheQueueHolds(TestRedrive kit) {
    kit.queue("emails");
    kit.engine().enqueue(msg("emails", "welcome", "{\"user\":{\"id\":7}}"));

    assertThatThrownBy(
            () ->
                kit.assertEnqueued(
                    "emails", MessageMatcher.type("welcome").payload("$.user.id", 8)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected 1 message on queue \"emails\"")
        .hasMessageContaining("type = \"welcome\" and $.user.id = 8")
        .hasMessageContaining("found 0")
        .hasMessageContaining("type=welcome payload={\"user\":{\"id\":7}}");
  }

  @Test
  void assertNotEnqueuedFailsWhenOneMatches(TestRedrive kit) {
    kit.queue("emails");
    kit.assertNotEnqueued("emails", MessageMatcher.type("welcome"));
    kit.engine().enqueue(msg("emails", "welcome", "{}"));
    assertThatThrownBy(() -> kit.assertNotEnqueued("emails", MessageMatcher.type("welcome")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("expected 0 messages");
  }

  @Test
  void matchersReadHeadersPredicatesAndNumbersByValue(TestRedrive kit) {
    kit.queue("q");
    kit.engine()
        .enqueue(
            NewMessage.builder("q", "t")
                .payload("{\"amount\":10.0,\"tags\":[\"a\",\"b\"]}")
                .headers(Map.of("tenant", "acme"))
                .build());
    kit.assertEnqueued(
        "q",
        MessageMatcher.type("t")
            .header("tenant", "acme")
            .payload("$.amount", 10)
            .payloadMatches("two tags", json -> json.get("tags").size() == 2));
    kit.assertNotEnqueued("q", MessageMatcher.any().header("tenant", "other"));
    kit.assertNotEnqueued("q", MessageMatcher.any().payload("$.missing", null));
  }

  @Test
  void badPathsAndUnknownQueuesAreNamed(TestRedrive kit) {
    assertThatThrownBy(() -> MessageMatcher.any().payload("user.id", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("starts with $");
    assertThatThrownBy(() -> MessageMatcher.any().payload("$.lines[*].sku", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 7");
    assertThatThrownBy(() -> kit.drain("nope")).isInstanceOf(QueueNotFoundException.class);
    assertThatThrownBy(() -> kit.assertEnqueued("nope", MessageMatcher.any()))
        .isInstanceOf(QueueNotFoundException.class);
  }

  @Test
  void drainRunsTheHandlersAndReportsWhatCompleted(TestRedrive kit) {
    List<String> seen = new CopyOnWriteArrayList<>();
    kit.handle(
        "emails",
        "welcome",
        ctx -> {
          seen.add(ctx.payload());
          return HandlerResult.complete();
        });
    String a = kit.engine().enqueue(msg("emails", "welcome", "{\"n\":1}")).id();
    String b = kit.engine().enqueue(msg("emails", "welcome", "{\"n\":2}")).id();

    DrainReport report = kit.drain("emails");

    assertThat(report.completedIds()).containsExactly(a, b);
    assertThat(report.failed()).isEmpty();
    assertThat(report.died()).isEmpty();
    assertThat(seen).containsExactly("{\"n\":1}", "{\"n\":2}");
    assertThat(kit.enqueued("emails")).isEmpty();
    assertThat(kit.drain("emails").runs()).isEmpty();
  }

  @Test
  void aFailureWaitsForItsBackoffUntilTheClockMoves(TestRedrive kit) {
    kit.queue("q", QueuePolicy.defaults().withRetry(3, Duration.ofMinutes(5)));
    AtomicInteger runs = new AtomicInteger();
    kit.handle(
        "q",
        "flaky",
        ctx -> {
          if (runs.incrementAndGet() == 1) {
            throw new IllegalStateException("payment API down");
          }
          return HandlerResult.complete();
        });
    String id = kit.engine().enqueue(msg("q", "flaky", "{}")).id();

    DrainReport first = kit.drain("q");
    assertThat(first.failed())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.id()).isEqualTo(id);
              assertThat(d.attempt()).isEqualTo(1);
              assertThat(d.error()).contains("payment API down");
              assertThat(d.retryAt())
                  .isEqualTo(TestRedrive.CLOCK_START.plus(Duration.ofMinutes(5)));
            });
    assertThat(kit.drain("q").runs()).as("not due before the clock moves").isEmpty();

    kit.advance(Duration.ofMinutes(5));
    DrainReport second = kit.drain("q");
    assertThat(second.completed())
        .singleElement()
        .satisfies(d -> assertThat(d.attempt()).isEqualTo(2));
  }

  @Test
  void followingRetriesRunsEveryMessageToItsEnd(TestRedrive kit) {
    kit.queue("q", QueuePolicy.defaults().withRetry(3, Duration.ofHours(1)));
    kit.handle(
        "q",
        "always",
        ctx -> {
          throw new IllegalStateException("broken " + ctx.attempt());
        });
    AtomicInteger flaky = new AtomicInteger();
    kit.handle(
        "q",
        "flaky",
        ctx ->
            flaky.incrementAndGet() < 3
                ? HandlerResult.retryAfter(Duration.ofMinutes(10), "later")
                : HandlerResult.complete());
    String dead = kit.engine().enqueue(msg("q", "always", "{}")).id();
    String ok = kit.engine().enqueue(msg("q", "flaky", "{}")).id();

    DrainReport report = kit.drain("q", Drain.defaults().followRetries());

    assertThat(report.completedIds()).containsExactly(ok);
    assertThat(report.died())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.id()).isEqualTo(dead);
              assertThat(d.attempt()).isEqualTo(3);
              assertThat(d.reason()).isEqualTo(FailureReason.HANDLER_EXCEPTION);
              assertThat(d.error()).contains("broken 3");
            });
    assertThat(report.failed()).hasSize(4);
    assertThat(kit.engine().getMessage(dead).state()).isEqualTo(MessageState.DEAD);
    assertThat(kit.clock().instant())
        .isAfterOrEqualTo(TestRedrive.CLOCK_START.plus(Duration.ofHours(2)));
  }

  @Test
  void aHandlerThatSaysDeadDiesAtOnce(TestRedrive kit) {
    kit.handle(
        "q", "bad", ctx -> HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "no sku"));
    kit.engine().enqueue(msg("q", "bad", "{}"));
    DrainReport report = kit.drain("q");
    assertThat(report.died())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.reason()).isEqualTo(FailureReason.VALIDATION_FAILURE);
              assertThat(d.error()).isEqualTo("no sku");
            });
  }

  @Test
  void drainStopsAtMostAfterNRuns(TestRedrive kit) {
    kit.handle("q", "t", ctx -> HandlerResult.complete());
    for (int i = 0; i < 5; i++) {
      kit.engine().enqueue(msg("q", "t", "{\"i\":" + i + "}"));
    }
    assertThat(kit.drain("q", Drain.defaults().atMost(2)).completed()).hasSize(2);
    assertThat(kit.enqueued("q")).hasSize(3);
    assertThat(kit.drain("q").completed()).hasSize(3);
  }

  @Test
  void drainOnAPoolKeepsEachStreamInOrder(TestRedrive kit) {
    Map<String, List<Integer>> byStream = new ConcurrentHashMap<>();
    Set<String> threads = ConcurrentHashMap.newKeySet();
    kit.handle(
        "q",
        "t",
        ctx -> {
          threads.add(Thread.currentThread().getName());
          byStream
              .computeIfAbsent(ctx.message().stream(), k -> new CopyOnWriteArrayList<>())
              .add(Integer.parseInt(ctx.payload()));
          return HandlerResult.complete();
        });
    for (int i = 0; i < 30; i++) {
      kit.engine()
          .enqueue(
              NewMessage.builder("q", "t").payload(Integer.toString(i)).stream("s" + (i % 3))
                  .build());
    }
    DrainReport report = kit.drain("q", Drain.defaults().onThreads(4));
    assertThat(report.completed()).hasSize(30);
    assertThat(byStream).hasSize(3);
    byStream.values().forEach(list -> assertThat(list).isSorted().hasSize(10));
    assertThat(threads).doesNotContain(Thread.currentThread().getName());
  }

  @Test
  void aTypeWithoutAHandlerIsNamedAndLeftWaiting(TestRedrive kit) {
    kit.handle("q", "known", ctx -> HandlerResult.complete());
    String id = kit.engine().enqueue(msg("q", "unknown", "{}")).id();
    assertThatThrownBy(() -> kit.drain("q"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no handler for type \"unknown\" on queue \"q\"");
    Message m = kit.engine().getMessage(id);
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).as("the release refunds the attempt").isZero();
  }

  @Test
  void aDelayedMessageIsDueOnceTheClockReachesIt(TestRedrive kit) {
    AtomicInteger runs = new AtomicInteger();
    kit.handle(
        "q",
        "t",
        ctx -> {
          runs.incrementAndGet();
          return HandlerResult.complete();
        });
    kit.engine()
        .enqueue(NewMessage.builder("q", "t").payload("{}").delay(Duration.ofDays(30)).build());
    assertThat(kit.enqueued("q"))
        .singleElement()
        .satisfies(m -> assertThat(m.state()).isEqualTo(MessageState.SCHEDULED));
    assertThat(kit.drain("q").runs()).isEmpty();
    kit.advance(Duration.ofDays(30));
    assertThat(kit.drain("q").completed()).hasSize(1);
    assertThat(runs).hasValue(1);
  }

  @Test
  void inlineModeRunsTheHandlerBeforeEnqueueReturns(TestRedrive kit) {
    List<String> ran = new CopyOnWriteArrayList<>();
    kit.handle(
        "orders",
        "placed",
        ctx -> {
          ran.add("placed");
          kit.engine().enqueue(msg("emails", "receipt", ctx.payload()));
          return HandlerResult.complete();
        });
    kit.handle(
        "emails",
        "receipt",
        ctx -> {
          ran.add("receipt");
          return HandlerResult.complete();
        });
    kit.inline(true);

    kit.engine().enqueue(msg("orders", "placed", "{\"order\":1}"));

    assertThat(ran).containsExactly("placed", "receipt");
    assertThat(kit.inlineReport().completed()).hasSize(2);
    assertThat(kit.enqueued("orders")).isEmpty();
    assertThat(kit.enqueued("emails")).isEmpty();
  }

  @Test
  void inlineModeLeavesAFailureScheduledAndOffMeansNothingRuns(TestRedrive kit) {
    kit.queue("q", QueuePolicy.defaults().withRetry(2, Duration.ofMinutes(1)));
    kit.handle(
        "q",
        "t",
        ctx -> {
          throw new IllegalStateException("nope");
        });
    kit.engine().enqueue(msg("q", "t", "{}"));
    assertThat(kit.enqueued("q")).singleElement().satisfies(m -> assertThat(m.attempts()).isZero());

    kit.inline(true);
    kit.engine().enqueue(msg("q", "t", "{}"));
    DrainReport inline = kit.inlineReport();
    assertThat(inline.failed()).as("the ready message enqueued before runs too").hasSize(2);
    assertThat(kit.enqueued("q"))
        .allSatisfy(m -> assertThat(m.state()).isEqualTo(MessageState.SCHEDULED));
  }

  @Test
  void inlineModeReportsAMissingHandler(TestRedrive kit) {
    kit.handle("q", "known", ctx -> HandlerResult.complete());
    kit.inline(true);
    kit.engine().enqueue(msg("q", "unknown", "{}"));
    assertThatThrownBy(kit::inlineReport)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no handler for type \"unknown\"");
  }
}
