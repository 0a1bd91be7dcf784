package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.MAPPER;
import static io.redrive.workflow.replay.Histories.T1;
import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.T3;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.stored;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.PayloadTooLargeException;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.OrchestrationContext;
import io.redrive.workflow.SubOrchestrationFailedException;
import io.redrive.workflow.SubOrchestrationOptions;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Continue-as-new, sub-orchestrations and the history size. */
class OrchestrationRunLifecycleTest {

  private static List<String> names(List<Event.RaisedEvent> carried) {
    List<String> out = new ArrayList<>();
    carried.forEach(n -> out.add(n.name() + "=" + n.payload().asText()));
    return out;
  }

  // ---- continueAsNew

  @Test
  void continueAsNew_afterTwoCommands_continuedWithInputAndNextSeq() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityCompleted(1, "a")
            .timerCreated(2, T2.plusSeconds(10))
            .newTurn(T3)
            .timerFired(2)
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in", String.class).await();
                  ctx.createTimer(Duration.ofSeconds(10)).await();
                  return ctx.continueAsNew(Map.of("round", 2));
                });

    RunResult.ContinuedAsNew c = as(RunResult.ContinuedAsNew.class, r);
    assertThat(c.input()).isEqualTo(MAPPER.valueToTree(Map.of("round", 2)));
    assertThat(c.nextSeq()).isEqualTo(3L);
    assertThat(c.version()).isNull();
    assertThat(c.events()).isEmpty();
    assertThat(c.carriedEvents()).isEmpty();
  }

  @Test
  void continueAsNew_withVersion_carriesTheVersion() {
    RunResult r = Histories.start().run((ctx, in) -> ctx.continueAsNew("2.0.0", "next"));

    RunResult.ContinuedAsNew c = as(RunResult.ContinuedAsNew.class, r);
    assertThat(c.version()).isEqualTo("2.0.0");
    assertThat(c.input().asText()).isEqualTo("next");
    assertThat(c.nextSeq()).isEqualTo(1L);
  }

  @Test
  void continueAsNew_executionStartedAtLaterSeq_commandsAndNextSeqContinueFromIt() {
    Histories h = Histories.start().executionId(2).firstSeq(11);
    Orchestration<Object, String> code =
        (ctx, in) -> {
          ctx.callActivity("A", "in", String.class).await();
          return ctx.continueAsNew("next");
        };
    RunResult first = h.run(code);

    assertThat(stored(as(RunResult.Suspended.class, first).events().get(0)).seq()).isEqualTo(11L);
    RunResult second = h.commit(first).newTurn(T2).activityCompleted(11, "a").run(code);
    assertThat(as(RunResult.ContinuedAsNew.class, second).nextSeq()).isEqualTo(12L);
  }

  @Test
  void continueAsNew_commandsIssuedThisTurn_areKeptInEvents() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  ctx.callActivity("fire-and-forget", "in", String.class);
                  return ctx.continueAsNew("next");
                });

    RunResult.ContinuedAsNew c = as(RunResult.ContinuedAsNew.class, r);
    assertThat(c.events()).extracting(e -> stored(e).name()).containsExactly("fire-and-forget");
    assertThat(c.nextSeq()).isEqualTo(2L);
  }

  @Test
  void continueAsNew_unconsumedEvents_carriedInHistoryOrder() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .eventRaised("a", "a1")
            .eventRaised("b", "b1")
            .eventRaised("a", "a2")
            .activityCompleted(1, "done")
            .eventRaised("c", "c1")
            .eventRaised("a", "a3")
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in", String.class).await();
                  ctx.waitForEvent("a", String.class).await(); // takes a1
                  return ctx.continueAsNew("next");
                });

    RunResult.ContinuedAsNew c = as(RunResult.ContinuedAsNew.class, r);
    assertThat(names(c.carriedEvents())).containsExactly("b=b1", "a=a2", "c=c1", "a=a3");
  }

  @Test
  void continueAsNew_carriedInEventsNotTaken_carriedAgainFirst() {
    RunResult r =
        Histories.start()
            .carried("x", "x1")
            .carried("y", "y1")
            .carried("x", "x2")
            .newTurn(T2)
            .eventRaised("y", "y2")
            .run(
                (ctx, in) -> {
                  ctx.waitForEvent("x", String.class).await(); // takes x1
                  return ctx.continueAsNew("next");
                });

    RunResult.ContinuedAsNew c = as(RunResult.ContinuedAsNew.class, r);
    assertThat(names(c.carriedEvents())).containsExactly("y=y1", "x=x2", "y=y2");
  }

  @Test
  void continueAsNew_objectPayloads_carriedAsJson() {
    RunResult r =
        Histories.start()
            .newTurn(T2)
            .eventRaised("order", Map.of("id", "o-1"))
            .run((ctx, in) -> ctx.continueAsNew("next"));

    Event.RaisedEvent carried = as(RunResult.ContinuedAsNew.class, r).carriedEvents().get(0);
    assertThat(carried.name()).isEqualTo("order");
    assertThat(carried.payload().get("id").asText()).isEqualTo("o-1");
  }

  @Test
  void continueAsNew_swallowedByCatchThrowable_stillContinued() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  try {
                    ctx.continueAsNew("next");
                  } catch (Throwable swallowed) {
                    // forbidden
                  }
                  return "ignored";
                });

    assertThat(as(RunResult.ContinuedAsNew.class, r).input().asText()).isEqualTo("next");
  }

  @Test
  void continueAsNew_inputOverPayloadLimit_throwsAtCallSite() {
    List<Throwable> seen = new ArrayList<>();
    RunResult r =
        Histories.start()
            .payloads(Histories.payloads(64))
            .run(
                (ctx, in) -> {
                  try {
                    return ctx.continueAsNew("z".repeat(100));
                  } catch (PayloadTooLargeException e) {
                    seen.add(e);
                    return "stayed";
                  }
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("stayed");
    assertThat(seen).hasSize(1);
  }

  // ---- sub-orchestrations

  @Test
  void callSubOrchestration_firstTurn_childScheduledWithDerivedInstanceId() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) ->
                    ctx.callSubOrchestration("ship", Map.of("box", 3), String.class).await());

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events()).hasSize(1);
    EventCodec.Stored e = stored(s.events().get(0));
    assertThat(e.kind()).isEqualTo(EventKind.CHILD_SCHEDULED);
    assertThat(e.seq()).isEqualTo(1L);
    assertThat(e.name()).isEqualTo("ship");
    assertThat(e.data().get("instanceId").asText()).isEqualTo("order-1::sub::1");
    assertThat(e.data().get("explicitId").asBoolean()).isFalse();
    assertThat(e.data().get("input").get("box").asInt()).isEqualTo(3);
    assertThat(e.data().has("version")).isFalse();
  }

  @Test
  void callSubOrchestration_explicitIdAndVersion_recordedAsGiven() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in", String.class);
                  return ctx.callSubOrchestration(
                          "ship",
                          "in",
                          new TypeReference<String>() {},
                          SubOrchestrationOptions.defaults()
                              .withInstanceId("ship-42")
                              .withVersion("2.1.0"))
                      .await();
                });

    EventCodec.Stored e = stored(as(RunResult.Suspended.class, r).events().get(1));
    assertThat(e.seq()).isEqualTo(2L);
    assertThat(e.data().get("instanceId").asText()).isEqualTo("ship-42");
    assertThat(e.data().get("explicitId").asBoolean()).isTrue();
    assertThat(e.data().get("version").asText()).isEqualTo("2.1.0");
  }

  @Test
  void callSubOrchestration_childCompleted_returnsItsOutput() {
    RunResult r =
        Histories.start()
            .childScheduled(1, "ship", "in")
            .newTurn(T2)
            .childCompleted(1, "shipped")
            .run((ctx, in) -> ctx.callSubOrchestration("ship", "in", String.class).await());

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("shipped");
  }

  @Test
  void callSubOrchestration_childFailed_subOrchestrationFailedExceptionCatchable() {
    WorkflowFailure childFailure =
        WorkflowFailure.application(
            WorkflowFailure.ORCHESTRATION_EXCEPTION,
            "no stock",
            "java.lang.IllegalStateException",
            "stack",
            false);
    List<WorkflowFailure> seen = new ArrayList<>();
    RunResult r =
        Histories.start()
            .childScheduled(1, "ship", "in")
            .newTurn(T2)
            .childFailed(1, childFailure)
            .run(
                (ctx, in) -> {
                  try {
                    return ctx.callSubOrchestration("ship", "in", String.class).await();
                  } catch (SubOrchestrationFailedException e) {
                    seen.add(e.failure());
                    return "compensated";
                  }
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("compensated");
    assertThat(seen).containsExactly(childFailure);
  }

  @Test
  void callSubOrchestration_childFailedUncaught_failsWithCause() {
    WorkflowFailure childFailure =
        WorkflowFailure.application(WorkflowFailure.TERMINATED, "stopped", null, null, false);
    RunResult r =
        Histories.start()
            .childScheduled(1, "ship", "in")
            .newTurn(T2)
            .childFailed(1, childFailure)
            .run((ctx, in) -> ctx.callSubOrchestration("ship", "in", String.class).await());

    WorkflowFailure f = as(RunResult.Failed.class, r).failure();
    assertThat(f.type()).isEqualTo(SubOrchestrationFailedException.class.getName());
    assertThat(f.cause()).isEqualTo(childFailure);
  }

  @Test
  void callSubOrchestration_inputOverPayloadLimit_throwsAtCallSiteNoEvent() {
    RunResult r =
        Histories.start()
            .payloads(Histories.payloads(64))
            .run(
                (ctx, in) -> {
                  try {
                    ctx.callSubOrchestration("ship", "q".repeat(100), String.class);
                    return "sent";
                  } catch (PayloadTooLargeException e) {
                    return "too large";
                  }
                });

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("too large");
    assertThat(c.events()).isEmpty();
  }

  // ---- history size

  private static Histories oneActivityDone(int maxEvents) {
    // 5 events: STARTED, TURN 1, SCHEDULED, TURN 2, COMPLETED
    return Histories.start()
        .maxHistoryEvents(maxEvents)
        .activityScheduled(1, "A", "in")
        .newTurn(T2)
        .activityCompleted(1, "a");
  }

  private static Orchestration<Object, Boolean> suggestedAfterA() {
    return (ctx, in) -> {
      ctx.callActivity("A", "in", String.class).await();
      return ctx.isContinueAsNewSuggested();
    };
  }

  @Test
  void isContinueAsNewSuggested_atHalfOfMaxEvents_false() {
    RunResult r = oneActivityDone(10).run(suggestedAfterA());

    assertThat(as(RunResult.Completed.class, r).output().asBoolean()).isFalse();
  }

  @Test
  void isContinueAsNewSuggested_pastHalfOfMaxEvents_true() {
    RunResult r = oneActivityDone(9).run(suggestedAfterA());

    assertThat(as(RunResult.Completed.class, r).output().asBoolean()).isTrue();
  }

  @Test
  void isContinueAsNewSuggested_pastHalfOfMaxBytes_true() {
    Histories small = oneActivityDone(10_000).maxHistoryBytes(1_000_000);
    Histories large = oneActivityDone(10_000).maxHistoryBytes(100);

    assertThat(as(RunResult.Completed.class, small.run(suggestedAfterA())).output().asBoolean())
        .isFalse();
    assertThat(as(RunResult.Completed.class, large.run(suggestedAfterA())).output().asBoolean())
        .isTrue();
  }

  @Test
  void historySize_afterConsumingHistory_countsEventsAndBytes() {
    List<OrchestrationContext.HistorySize> seen = new ArrayList<>();
    oneActivityDone(10_000)
        .run(
            (ctx, in) -> {
              ctx.callActivity("A", "in", String.class).await();
              seen.add(ctx.historySize());
              return "x";
            });

    assertThat(seen)
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.events()).isEqualTo(5);
              assertThat(s.bytes()).isPositive();
            });
  }

  /**
   * The canonical loop: call an activity per round and continue as new once suggested. Each turn
   * replays the earlier rounds; their decisions must not change because history grew since.
   */
  @Test
  void isContinueAsNewSuggested_loopReplayedInLaterTurns_decisionsStayDeterministic() {
    Orchestration<Object, String> loop =
        (ctx, in) -> {
          for (int round = 0; ; round++) {
            if (ctx.isContinueAsNewSuggested()) {
              return ctx.continueAsNew(round);
            }
            ctx.callActivity("A", round, Integer.class).await();
          }
        };
    Histories h = Histories.start(T1).maxHistoryEvents(20);
    RunResult r = h.run(loop);
    Instant at = T1;
    int turns = 1;
    while (r instanceof RunResult.Suspended && turns < 20) {
      long seq = stored(r.events().get(r.events().size() - 1)).seq();
      at = at.plusSeconds(60);
      r = h.commit(r).newTurn(at).activityCompleted(seq, 0).run(loop);
      turns++;
    }

    RunResult.ContinuedAsNew c = as(RunResult.ContinuedAsNew.class, r);
    assertThat(c.nextSeq()).isGreaterThan(2L);
    // replaying the finished history again decides the same
    RunResult again = h.run(loop);
    assertThat(as(RunResult.ContinuedAsNew.class, again).nextSeq()).isEqualTo(c.nextSeq());
  }
}
