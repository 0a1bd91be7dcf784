package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.INSTANCE;
import static io.redrive.workflow.replay.Histories.MAPPER;
import static io.redrive.workflow.replay.Histories.T1;
import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.T3;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.stored;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.workflow.OrchestrationContext;
import io.redrive.workflow.Task;
import io.redrive.workflow.TurnSuspended;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.TimerPurpose;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** The basic turn cycle and the deterministic values, on synthetic histories. */
class OrchestrationRunTest {

  private static String callA(OrchestrationContext ctx, Object in) {
    return ctx.callActivity("A", "in-1", String.class).await();
  }

  // ---- one activity, two turns

  @Test
  void callActivity_firstTurn_suspendsWithOneActivityScheduled() {
    RunResult r = Histories.start().run(OrchestrationRunTest::callA);

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events()).hasSize(1);
    EventCodec.Stored e = stored(s.events().get(0));
    assertThat(e.kind()).isEqualTo(EventKind.ACTIVITY_SCHEDULED);
    assertThat(e.seq()).isEqualTo(1L);
    assertThat(e.name()).isEqualTo("A");
    assertThat(e.data().get("seq").asLong()).isEqualTo(1L);
    assertThat(e.data().get("name").asText()).isEqualTo("A");
    assertThat(e.data().get("input")).isEqualTo(MAPPER.valueToTree("in-1"));
    assertThat(e.data().get("retryNumber").asInt()).isZero();
    assertThat(s.events()).noneMatch(n -> EventKind.TERMINAL.contains(n.kind()));
  }

  @Test
  void callActivity_objectInput_isWrittenAsJson() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) ->
                    ctx.callActivity("charge", Map.of("amount", 42), String.class).await());

    EventCodec.Stored e = stored(as(RunResult.Suspended.class, r).events().get(0));
    assertThat(e.data().get("input").get("amount").asInt()).isEqualTo(42);
  }

  @Test
  void callActivity_completedInNewTurn_completesWithOutput() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in-1")
            .newTurn(T2)
            .activityCompleted(1, "out-1")
            .run(OrchestrationRunTest::callA);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output()).isEqualTo(MAPPER.valueToTree("out-1"));
    assertThat(c.events()).isEmpty();
  }

  @Test
  void callActivity_engineOwnEventsCommitted_replayToCompletion() {
    Histories h = Histories.start();
    RunResult first = h.run(OrchestrationRunTest::callA);

    RunResult second =
        h.commit(first).newTurn(T2).activityCompleted(1, "out").run(OrchestrationRunTest::callA);

    assertThat(as(RunResult.Completed.class, second).output().asText()).isEqualTo("out");
  }

  @Test
  void callActivity_resultNotInNewTurn_suspendsAgainWithNothingNew() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in-1")
            .newTurn(T2)
            .eventRaised("unrelated", 1)
            .run(OrchestrationRunTest::callA);

    assertThat(as(RunResult.Suspended.class, r).events()).isEmpty();
  }

  @Test
  void twoActivitiesInSequence_thirdTurn_completesWithBothResults() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", 1)
            .turn(T2)
            .activityCompleted(1, 10)
            .activityScheduled(2, "B", 10)
            .newTurn(T3)
            .activityCompleted(2, 20)
            .run(
                (ctx, in) -> {
                  int a = ctx.callActivity("A", 1, Integer.class).await();
                  int b = ctx.callActivity("B", a, Integer.class).await();
                  return a + b;
                });

    assertThat(as(RunResult.Completed.class, r).output().asInt()).isEqualTo(30);
  }

  @Test
  void input_ofTheExecution_isDecodedIntoTheInputType() {
    record Order(String id, int qty) {}
    RunResult r =
        Histories.start()
            .input(new Order("o-7", 3), Order.class)
            .run(
                (OrchestrationContext ctx, Object in) ->
                    ((Order) in).id() + "x" + ((Order) in).qty());

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("o-7x3");
  }

  // ---- isReplaying

  @Test
  void isReplaying_awaitOfResultInNewTurn_trueBeforeFalseAfter() {
    List<Boolean> seen = new ArrayList<>();
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in-1")
            .newTurn(T2)
            .activityCompleted(1, "out-1")
            .run(
                (ctx, in) -> {
                  seen.add(ctx.isReplaying());
                  Task<String> a = ctx.callActivity("A", "in-1", String.class);
                  seen.add(ctx.isReplaying());
                  String out = a.await();
                  seen.add(ctx.isReplaying());
                  return out;
                });

    assertThat(r).isInstanceOf(RunResult.Completed.class);
    assertThat(seen).containsExactly(true, true, false);
  }

  @Test
  void isReplaying_firstTurn_false() {
    List<Boolean> seen = new ArrayList<>();
    Histories.start()
        .run(
            (ctx, in) -> {
              seen.add(ctx.isReplaying());
              return "done";
            });

    assertThat(seen).containsExactly(false);
  }

  @Test
  void isReplaying_resultFromStoredTurn_staysTrueUntilNewResult() {
    List<Boolean> seen = new ArrayList<>();
    Histories.start()
        .activityScheduled(1, "A", 1)
        .turn(T2)
        .activityCompleted(1, 10)
        .activityScheduled(2, "B", 10)
        .newTurn(T3)
        .activityCompleted(2, 20)
        .run(
            (ctx, in) -> {
              ctx.callActivity("A", 1, Integer.class).await();
              seen.add(ctx.isReplaying());
              ctx.callActivity("B", 10, Integer.class).await();
              seen.add(ctx.isReplaying());
              return 0;
            });

    assertThat(seen).containsExactly(true, false);
  }

  @Test
  void logger_whileReplaying_isSilentAndAfterwardsForwards() {
    List<String> lines = new ArrayList<>();
    Logger recording =
        (Logger)
            Proxy.newProxyInstance(
                Logger.class.getClassLoader(),
                new Class<?>[] {Logger.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("info")) {
                    lines.add(String.valueOf(args[0]));
                  }
                  return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
                });

    Histories.start()
        .logger(recording)
        .activityScheduled(1, "A", "in-1")
        .newTurn(T2)
        .activityCompleted(1, "out-1")
        .run(
            (ctx, in) -> {
              ctx.logger().info("before");
              String out = ctx.callActivity("A", "in-1", String.class).await();
              ctx.logger().info("after");
              return out;
            });

    assertThat(lines).containsExactly("after");
  }

  // ---- now()

  @Test
  void now_beforeAnyAwait_isFirstTurnStart() {
    List<Instant> seen = new ArrayList<>();
    Histories.start(T1)
        .activityScheduled(1, "A", "in-1")
        .newTurn(T2)
        .activityCompleted(1, "out-1")
        .run(
            (ctx, in) -> {
              seen.add(ctx.now());
              return "x";
            });

    assertThat(seen).containsExactly(T1);
  }

  @Test
  void now_afterAwaitingResultOfLaterTurn_movesToThatTurnsStart() {
    List<Instant> seen = new ArrayList<>();
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in-1")
            .newTurn(T2)
            .activityCompleted(1, "out-1")
            .run(
                (ctx, in) -> {
                  seen.add(ctx.now());
                  String out = ctx.callActivity("A", "in-1", String.class).await();
                  seen.add(ctx.now());
                  return out;
                });

    assertThat(r).isInstanceOf(RunResult.Completed.class);
    assertThat(seen).containsExactly(T1, T2);
  }

  @Test
  void now_resultOfStoredTurn_isThatTurnNotTheCurrentOne() {
    List<Instant> seen = new ArrayList<>();
    Histories.start(T1)
        .activityScheduled(1, "A", 1)
        .turn(T2)
        .activityCompleted(1, 10)
        .activityScheduled(2, "B", 10)
        .newTurn(T3)
        .activityCompleted(2, 20)
        .run(
            (ctx, in) -> {
              ctx.callActivity("A", 1, Integer.class).await();
              seen.add(ctx.now());
              ctx.callActivity("B", 10, Integer.class).await();
              seen.add(ctx.now());
              return 0;
            });

    assertThat(seen).containsExactly(T2, T3);
  }

  @Test
  void deterministicValues_twoRunsOfSameHistory_areIdentical() {
    Histories h =
        Histories.start(T1)
            .activityScheduled(1, "A", "in-1")
            .newTurn(T2)
            .activityCompleted(1, "out-1");
    List<Object> first = new ArrayList<>();
    List<Object> second = new ArrayList<>();

    h.run(recordValues(first));
    h.run(recordValues(second));

    assertThat(first).hasSize(8).isEqualTo(second);
  }

  private static io.redrive.workflow.Orchestration<Object, String> recordValues(List<Object> out) {
    return (ctx, in) -> {
      out.add(ctx.now());
      out.add(ctx.newUuid());
      out.add(ctx.random().nextLong());
      String r = ctx.callActivity("A", "in-1", String.class).await();
      out.add(ctx.now());
      out.add(ctx.newUuid());
      out.add(ctx.newUuid());
      out.add(ctx.random().nextLong());
      out.add(ctx.random().nextInt(1000));
      return r;
    };
  }

  @Test
  void newUuid_successiveCalls_differ() {
    List<UUID> seen = new ArrayList<>();
    Histories.start()
        .run(
            (ctx, in) -> {
              seen.add(ctx.newUuid());
              seen.add(ctx.newUuid());
              return "x";
            });

    assertThat(seen).doesNotHaveDuplicates();
  }

  @Test
  void newUuidAndRandom_otherInstance_differ() {
    List<Object> a = new ArrayList<>();
    List<Object> b = new ArrayList<>();
    io.redrive.workflow.Orchestration<Object, String> code =
        (ctx, in) -> {
          a.add(ctx.newUuid());
          a.add(ctx.random().nextLong());
          return "x";
        };
    io.redrive.workflow.Orchestration<Object, String> other =
        (ctx, in) -> {
          b.add(ctx.newUuid());
          b.add(ctx.random().nextLong());
          return "x";
        };

    Histories.start().instanceId("order-1").run(code);
    Histories.start().instanceId("order-2").run(other);

    assertThat(a.get(0)).isNotEqualTo(b.get(0));
    assertThat(a.get(1)).isNotEqualTo(b.get(1));
  }

  @Test
  void newUuidAndRandom_otherExecution_differ() {
    List<Object> a = new ArrayList<>();
    List<Object> b = new ArrayList<>();

    Histories.start()
        .executionId(1)
        .run(
            (ctx, in) -> {
              a.add(ctx.newUuid());
              a.add(ctx.random().nextLong());
              return "x";
            });
    Histories.start()
        .executionId(2)
        .run(
            (ctx, in) -> {
              b.add(ctx.newUuid());
              b.add(ctx.random().nextLong());
              return "x";
            });

    assertThat(a.get(0)).isNotEqualTo(b.get(0));
    assertThat(a.get(1)).isNotEqualTo(b.get(1));
  }

  // ---- timers

  @Test
  void createTimer_duration_timerCreatedFiresAtNowPlusDelay() {
    RunResult r =
        Histories.start(T1)
            .run(
                (ctx, in) -> {
                  ctx.createTimer(Duration.ofMinutes(5)).await();
                  return "woke";
                });

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events()).hasSize(1);
    EventCodec.Stored e = stored(s.events().get(0));
    assertThat(e.kind()).isEqualTo(EventKind.TIMER_CREATED);
    assertThat(e.seq()).isEqualTo(1L);
    assertThat(e.data().get("purpose").asText()).isEqualTo(TimerPurpose.USER.name());
    assertThat(Instant.parse(e.data().get("fireAt").asText()))
        .isEqualTo(T1.plus(Duration.ofMinutes(5)));
  }

  @Test
  void createTimer_afterAwaitInLaterTurn_fireAtCountsFromThatTurn() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in-1")
            .newTurn(T2)
            .activityCompleted(1, "out-1")
            .run(
                (ctx, in) -> {
                  callA(ctx, in);
                  ctx.createTimer(Duration.ofSeconds(30)).await();
                  return "woke";
                });

    EventCodec.Stored e = stored(as(RunResult.Suspended.class, r).events().get(0));
    assertThat(e.seq()).isEqualTo(2L);
    assertThat(Instant.parse(e.data().get("fireAt").asText())).isEqualTo(T2.plusSeconds(30));
  }

  @Test
  void createTimer_instant_fireAtIsThatInstant() {
    Instant when = T1.plusSeconds(86_400);
    RunResult r =
        Histories.start(T1)
            .run(
                (ctx, in) -> {
                  ctx.createTimer(when).await();
                  return "woke";
                });

    EventCodec.Stored e = stored(as(RunResult.Suspended.class, r).events().get(0));
    assertThat(Instant.parse(e.data().get("fireAt").asText())).isEqualTo(when);
  }

  @Test
  void createTimer_timerFired_awaitReturnsAndNowIsTheFiringTurn() {
    List<Instant> seen = new ArrayList<>();
    RunResult r =
        Histories.start(T1)
            .timerCreated(1, T1.plusSeconds(60))
            .newTurn(T2)
            .timerFired(1)
            .run(
                (ctx, in) -> {
                  ctx.createTimer(Duration.ofSeconds(60)).await();
                  seen.add(ctx.now());
                  return "woke";
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("woke");
    assertThat(seen).containsExactly(T2);
  }

  @Test
  void createTimer_notFiredYet_isDoneFalseAndSuspends() {
    List<Boolean> done = new ArrayList<>();
    RunResult r =
        Histories.start(T1)
            .timerCreated(1, T1.plusSeconds(60))
            .newTurn(T2)
            .run(
                (ctx, in) -> {
                  Task<Void> t = ctx.createTimer(Duration.ofSeconds(60));
                  done.add(t.isDone());
                  t.await();
                  return "woke";
                });

    assertThat(as(RunResult.Suspended.class, r).events()).isEmpty();
    assertThat(done).containsExactly(false);
  }

  @Test
  void createTimer_negativeDelay_throwsIllegalArgumentAndIssuesNothing() {
    List<Throwable> seen = new ArrayList<>();
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  try {
                    ctx.createTimer(Duration.ofSeconds(-1));
                  } catch (IllegalArgumentException e) {
                    seen.add(e);
                  }
                  return "x";
                });

    assertThat(as(RunResult.Completed.class, r).events()).isEmpty();
    assertThat(seen).hasSize(1);
  }

  @Test
  void anyOf_noTasks_throwsIllegalArgument() {
    RunResult r = Histories.start().run((ctx, in) -> ctx.anyOf(List.of()).await());

    assertThat(as(RunResult.Failed.class, r).failure().type())
        .isEqualTo(IllegalArgumentException.class.getName());
  }

  // ---- the execution

  @Test
  void accessors_ofTheSpec_areReturnedAsGiven() {
    OrchestrationContext.ParentRef parent = new OrchestrationContext.ParentRef("root-1", 2, 5);
    List<Object> seen = new ArrayList<>();
    Histories.start()
        .instanceId("root-1::sub::5")
        .executionId(4)
        .parent(parent)
        .run(
            (ctx, in) -> {
              seen.add(ctx.instanceId());
              seen.add(ctx.executionId());
              seen.add(ctx.name());
              seen.add(ctx.version());
              seen.add(ctx.parent().orElseThrow());
              return "x";
            });

    assertThat(seen).containsExactly("root-1::sub::5", 4, "order", "1.0.0", parent);
  }

  // ---- status

  @Test
  void setStatus_anyOutcome_isReturnedAsJson() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  ctx.setStatus(Map.of("step", "charging"));
                  return callA(ctx, in);
                });

    assertThat(r.customStatus().get("step").asText()).isEqualTo("charging");
  }

  // ---- misuse

  @Test
  void catchThrowableAroundAwait_codeReturnsValue_stillSuspendedAndValueIgnored() {
    List<Throwable> later = new ArrayList<>();
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  try {
                    ctx.callActivity("A", "in-1", String.class).await();
                  } catch (Throwable swallowed) {
                    // the determinism rules forbid this; the run must not be fooled
                  }
                  try {
                    ctx.callActivity("B", "in-2", String.class);
                  } catch (Throwable t) {
                    later.add(t);
                  }
                  return "ignored";
                });

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events()).extracting(e -> stored(e).name()).containsExactly("A");
    assertThat(later).singleElement().isInstanceOf(TurnSuspended.class);
  }

  @Test
  void catchThrowableAroundAwait_codeThrowsAfterwards_stillSuspended() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  try {
                    ctx.callActivity("A", "in-1", String.class).await();
                  } catch (Throwable swallowed) {
                    // ignored
                  }
                  throw new IllegalStateException("after the swallow");
                });

    assertThat(r).isInstanceOf(RunResult.Suspended.class);
  }

  @Test
  void contextCall_fromAnotherThread_throwsIllegalStateException() {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  Thread t =
                      new Thread(
                          () -> {
                            try {
                              ctx.callActivity("A", "in-1", String.class);
                            } catch (Throwable e) {
                              thrown.set(e);
                            }
                          },
                          "rogue");
                  t.start();
                  t.join();
                  return "x";
                });

    assertThat(thrown.get())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("rogue");
    assertThat(as(RunResult.Completed.class, r).events()).isEmpty();
  }

  @Test
  void contextCall_afterTheRunEnded_throwsIllegalStateException() {
    AtomicReference<OrchestrationContext> leaked = new AtomicReference<>();
    Histories.start()
        .run(
            (ctx, in) -> {
              leaked.set(ctx);
              return "x";
            });

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> leaked.get().now())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void codeThrowsIllegalStateException_failedWithOrchestrationException() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  throw new IllegalStateException("order has no lines");
                });

    RunResult.Failed f = as(RunResult.Failed.class, r);
    WorkflowFailure failure = f.failure();
    assertThat(failure.reason()).isEqualTo(WorkflowFailure.ORCHESTRATION_EXCEPTION);
    assertThat(failure.category()).isEqualTo("application");
    assertThat(failure.type()).isEqualTo(IllegalStateException.class.getName());
    assertThat(failure.message()).isEqualTo("order has no lines");
    assertThat(failure.stackTrace()).isNotBlank().contains("IllegalStateException");
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.instanceId()).isEqualTo(INSTANCE);
    assertThat(failure.executionId()).isEqualTo(1);
  }

  @Test
  void codeThrowsAfterIssuingCommands_failedKeepsTheCommands() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in-1", String.class);
                  throw new IllegalArgumentException("bad");
                });

    RunResult.Failed f = as(RunResult.Failed.class, r);
    assertThat(f.events()).extracting(Event::kind).containsExactly(EventKind.ACTIVITY_SCHEDULED);
  }

  @Test
  void codeThrowsCheckedException_failedWithItsType() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  throw new java.io.IOException("checked");
                });

    assertThat(as(RunResult.Failed.class, r).failure().type()).isEqualTo("java.io.IOException");
  }
}
