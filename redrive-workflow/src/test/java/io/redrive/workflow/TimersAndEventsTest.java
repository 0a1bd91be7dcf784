package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redrive.error.ConflictException;
import io.redrive.error.InstanceNotFoundException;
import io.redrive.testkit.ControllableClock;
import io.redrive.testkit.TestHooks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Timers and external events with the controllable clock (docs/workflows.md, "Timers", "External
 * events"), on both stores.
 */
class TimersAndEventsTest extends RuntimeHarness {
  private static final Duration HOUR = Duration.ofHours(1);
  private ControllableClock clock;

  private void start(StoreKind kind) {
    clock = ControllableClock.startingAtEpochOfTests();
    redrive(kind, clock);
  }

  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Sleeper",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              Instant fireAt = ctx.now().plus(HOUR);
              ctx.createTimer(fireAt).await();
              return "woke at " + ctx.now();
            })
        .orchestration(
            "PastTimer",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              ctx.createTimer(ctx.now().minus(HOUR)).await();
              return "fired";
            })
        .orchestration(
            "ManyTimers",
            "1.0.0",
            Integer.class,
            Integer.class,
            (ctx, n) -> {
              List<Task<Void>> timers = new ArrayList<>();
              for (int i = 0; i < n; i++) {
                timers.add(ctx.createTimer(Duration.ofMillis(i + 1)));
              }
              return ctx.allOf(timers).await().size();
            })
        .orchestration(
            "Race",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              Task<Void> timer = ctx.createTimer(HOUR);
              Task<String> event = ctx.waitForEvent("go", String.class);
              Task<?> first = ctx.anyOf(List.of(timer, event)).await();
              return first == timer ? "timer" : "event " + event.await();
            })
        .orchestration(
            "TwoWaits",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              Optional<String> a = ctx.waitForEvent("e", String.class, HOUR).await();
              String b = ctx.waitForEvent("e", String.class).await();
              return a.orElse("timeout") + "," + b;
            })
        .orchestration(
            "EventThenMore",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              Optional<String> first = ctx.waitForEvent("e", String.class, HOUR).await();
              return first.orElse("timeout") + " " + ctx.waitForEvent("more", String.class).await();
            })
        .orchestration(
            "Collector",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, n) -> {
              List<String> got = new ArrayList<>();
              for (int i = 0; i < n; i++) {
                got.add(ctx.waitForEvent("item", String.class).await());
              }
              return String.join(",", got);
            })
        .orchestration(
            "Carrier",
            "1.0.0",
            Integer.class,
            String.class,
            (ctx, round) -> {
              String e = ctx.waitForEvent("item", String.class).await();
              if (round == 1) {
                return ctx.continueAsNew(2);
              }
              return "execution " + ctx.executionId() + " got " + e;
            })
        .build();
  }

  private void awaitTimerWaiting(String id) {
    await()
        .atMost(WAIT)
        .until(
            () ->
                workflowStore().readInbox(id).stream().anyMatch(r -> r.kind().equals("TIMER_FIRED"))
                    && client().get(id).orElseThrow().status() == InstanceStatus.RUNNING);
  }

  /** Holds while the pollers get several rounds (50 ms each) to act on what they must not. */
  private static void staysTrue(java.util.concurrent.Callable<Boolean> condition) {
    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(condition);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void timer_firesExactlyAtItsTime(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());
    Instant startedAt = clock.instant();
    String id = client().start(StartRequest.of("Sleeper", "x")).instanceId();
    awaitTimerWaiting(id);

    clock.advance(HOUR.minusMillis(1));
    staysTrue(() -> client().get(id).orElseThrow().status() == InstanceStatus.RUNNING);

    clock.advance(Duration.ofMillis(1));
    assertThat(client().awaitResult(id, WAIT, String.class))
        .isEqualTo("woke at " + startedAt.plus(HOUR));
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void timer_survivesARuntimeRestart(StoreKind kind) throws Exception {
    start(kind);
    WorkflowRuntime first = runtime(registry());
    String id = client().start(StartRequest.of("Sleeper", "x")).instanceId();
    awaitTimerWaiting(id);
    first.stop(WAIT);

    clock.advance(HOUR);
    runtime(registry());

    assertThat(client().awaitResult(id, WAIT, String.class)).startsWith("woke at ");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void timerInThePast_firesAtTheNextTurn(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());

    String id = client().start(StartRequest.of("PastTimer", "x")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("fired");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void thousandTimers_allFire(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());
    String id = client().start(StartRequest.of("ManyTimers", 1000)).instanceId();
    awaitTimerWaiting(id);

    clock.advance(Duration.ofSeconds(2));

    assertThat(client().awaitResult(id, WAIT, Integer.class)).isEqualTo(1000);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anyOf_eventBeforeTimer_eventWins(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());
    String id = client().start(StartRequest.of("Race", "x")).instanceId();
    awaitTimerWaiting(id);

    client().raiseEvent(id, "go", "now", null);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("event now");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anyOf_timerBeforeEvent_timerWins(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());
    String id = client().start(StartRequest.of("Race", "x")).instanceId();
    awaitTimerWaiting(id);

    clock.advance(HOUR);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("timer");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void waitTimesOut_lateEventGoesToTheNextWait(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());
    String id = client().start(StartRequest.of("TwoWaits", "x")).instanceId();
    awaitTimerWaiting(id);

    clock.advance(HOUR);
    await().atMost(WAIT).until(() -> workflowStore().readInbox(id).isEmpty());
    client().raiseEvent(id, "e", "late", null);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("timeout,late");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void eventBeatsItsTimeout_theLostTimerIsDeletedAtThatTurn(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());
    String id = client().start(StartRequest.of("EventThenMore", "x")).instanceId();
    awaitTimerWaiting(id);

    client().raiseEvent(id, "e", "first", null);

    await()
        .atMost(WAIT)
        .until(
            () ->
                client().history(id, 1).stream().anyMatch(e -> e.kind().equals("EVENT_RAISED"))
                    && workflowStore().readInbox(id).isEmpty());
    client().raiseEvent(id, "more", "second", null);
    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("first second");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void events_bufferedBeforeTheWait_takenInOrder_dedupedByKey(StoreKind kind) throws Exception {
    start(kind);
    String id =
        client()
            .start(StartRequest.of("Collector", 3).withStartAt(clock.instant().plus(HOUR)))
            .instanceId();
    assertThat(client().raiseEvent(id, "item", "a", "k-a")).as("PENDING accepts events").isTrue();
    assertThat(client().raiseEvent(id, "item", "a", "k-a")).as("same dedupe key").isFalse();
    client().raiseEvent(id, "item", "b", null);
    client().raiseEvent(id, "item", "c", null);
    runtime(registry());

    clock.advance(HOUR);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("a,b,c");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void raiseEvent_unknownOrEnded_refused(StoreKind kind) throws Exception {
    start(kind);
    runtime(registry());
    String done = client().start(StartRequest.of("PastTimer", "x")).instanceId();
    client().awaitResult(done, WAIT, String.class);

    assertThatThrownBy(() -> client().raiseEvent("no-such-instance", "e", 1, null))
        .isInstanceOf(InstanceNotFoundException.class);
    assertThatThrownBy(() -> client().raiseEvent(done, "e", 1, null))
        .isInstanceOf(ConflictException.class)
        .extracting(e -> ((ConflictException) e).code())
        .isEqualTo("INSTANCE_NOT_RUNNING");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void unconsumedEvents_carriedAcrossContinueAsNew(StoreKind kind) throws Exception {
    start(kind);
    String id =
        client()
            .start(StartRequest.of("Carrier", 1).withStartAt(clock.instant().plus(HOUR)))
            .instanceId();
    client().raiseEvent(id, "item", "first", null);
    client().raiseEvent(id, "item", "second", null);
    runtime(registry());

    clock.advance(HOUR);

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("execution 2 got second");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void d26_unreadableHistory_noSecondLeaseBeforeItsBackoff(StoreKind kind) throws Exception {
    start(kind);
    WorkflowRuntime first = runtime(registry());
    String id = client().start(StartRequest.of("Collector", 2)).instanceId();
    await()
        .atMost(WAIT)
        .until(() -> client().get(id).orElseThrow().status() == InstanceStatus.RUNNING);
    first.stop(WAIT);
    withConnection(c -> TestHooks.corruptHistoryEvent(c, id, 1, 1));
    runtime(registry(), b -> b.maxAttempts(100));

    client().raiseEvent(id, "item", "a", null);
    await().atMost(WAIT).until(() -> workflowStore().readTimeline(id).size() == 1);
    staysTrue(() -> workflowStore().readTimeline(id).size() == 1);

    assertThat(workflowStore().readTimeline(id))
        .singleElement()
        .satisfies(t -> assertThat(t.outcome()).isEqualTo("HISTORY_UNREADABLE"));
    assertThat(client().get(id).orElseThrow().status()).isEqualTo(InstanceStatus.RUNNING);
    clock.advance(Duration.ofSeconds(1));
    await().atMost(WAIT).until(() -> workflowStore().readTimeline(id).size() == 2);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void eventRaisedDuringABackoff_deliveredAfterIt(StoreKind kind) throws Exception {
    start(kind);
    WorkflowRegistry withoutCollector =
        WorkflowRegistry.builder()
            .orchestration("Other", "1.0.0", String.class, String.class, (ctx, in) -> in)
            .build();
    WorkflowRuntime old = runtime(withoutCollector, b -> b.maxAttempts(100));
    String id = client().start(StartRequest.of("Collector", 1)).instanceId();
    await().atMost(WAIT).until(() -> workflowStore().readTimeline(id).size() == 1);
    old.stop(WAIT);
    runtime(registry(), b -> b.maxAttempts(100));

    client().raiseEvent(id, "item", "during backoff", null);
    staysTrue(() -> client().get(id).orElseThrow().status() == InstanceStatus.PENDING);
    clock.advance(Duration.ofSeconds(1));

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("during backoff");
  }
}
