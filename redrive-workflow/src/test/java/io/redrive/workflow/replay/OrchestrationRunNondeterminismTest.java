package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.T1;
import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.T3;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.stored;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.workflow.Orchestration;
import io.redrive.workflow.Task;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Nondeterminism detection (docs §4.2 (a), (b), (c)) and patches. */
class OrchestrationRunNondeterminismTest {

  private static final String PREFIX = "nondeterminism: order-1 execution 1 command #";

  private static RunResult.Bounced nondeterminism(RunResult r) {
    RunResult.Bounced b = as(RunResult.Bounced.class, r);
    assertThat(b.reason()).isEqualTo(WorkflowFailure.NONDETERMINISM);
    assertThat(b.events()).isEmpty();
    return b;
  }

  // ---- (a) a command of another name or kind

  @Test
  void replay_codeIssuesOtherActivityName_bouncedWithExactMessage() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(1, "a")
            .run((ctx, in) -> ctx.callActivity("B", "in", String.class).await());

    assertThat(nondeterminism(r).message())
        .isEqualTo(
            PREFIX + "1: history has ACTIVITY_SCHEDULED A, code issued ACTIVITY_SCHEDULED B");
  }

  @Test
  void replay_codeIssuesOtherKind_bouncedNamingBothKinds() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .run(
                (ctx, in) -> {
                  ctx.createTimer(Duration.ofSeconds(5)).await();
                  return "x";
                });

    assertThat(nondeterminism(r).message())
        .isEqualTo(PREFIX + "1: history has ACTIVITY_SCHEDULED A, code issued TIMER_CREATED USER");
  }

  @Test
  void replay_secondCommandDiffers_bouncedAtThatCommand() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityCompleted(1, "a")
            .activityScheduled(2, "B", "in")
            .newTurn(T3)
            .activityCompleted(2, "b")
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in", String.class).await();
                  return ctx.callSubOrchestration("B", "in", String.class).await();
                });

    assertThat(nondeterminism(r).message())
        .isEqualTo(PREFIX + "2: history has ACTIVITY_SCHEDULED B, code issued CHILD_SCHEDULED B");
  }

  @Test
  void replay_otherExecution_messageNamesIt() {
    RunResult r =
        Histories.start()
            .executionId(3)
            .firstSeq(7)
            .activityScheduled(7, "A", "in")
            .newTurn(T2)
            .run((ctx, in) -> ctx.callActivity("B", "in", String.class).await());

    assertThat(nondeterminism(r).message())
        .isEqualTo(
            "nondeterminism: order-1 execution 3 command #7: history has ACTIVITY_SCHEDULED A,"
                + " code issued ACTIVITY_SCHEDULED B");
  }

  @Test
  void replay_mismatchSwallowedByCatchThrowable_stillBounced() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .run(
                (ctx, in) -> {
                  try {
                    ctx.callActivity("B", "in", String.class);
                  } catch (Throwable swallowed) {
                    // forbidden; the run must still see the mismatch
                  }
                  return "went on";
                });

    assertThat(nondeterminism(r).message()).contains("code issued ACTIVITY_SCHEDULED B");
  }

  @Test
  void replay_activityInputDiffers_notNondeterminism() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "old input")
            .newTurn(T2)
            .activityCompleted(1, "a")
            .run((ctx, in) -> ctx.callActivity("A", "new input", String.class).await());

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("a");
  }

  @Test
  void replay_userTimerWhereHistoryHasEventTimeout_bouncedNamingPurposes() {
    RunResult r =
        Histories.start()
            .eventTimeoutCreated(1, T1.plusSeconds(60), "approved")
            .newTurn(T2)
            .run(
                (ctx, in) -> {
                  ctx.createTimer(Duration.ofMinutes(1)).await();
                  return "x";
                });

    assertThat(nondeterminism(r).message())
        .isEqualTo(
            PREFIX + "1: history has TIMER_CREATED EVENT_TIMEOUT, code issued TIMER_CREATED USER");
  }

  // ---- (b) history has a command the code did not issue

  @Test
  void replay_codeCompletesBeforeRecordedCommand_bouncedItCompleted() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityCompleted(1, "a")
            .activityScheduled(2, "B", "in")
            .newTurn(T3)
            .activityCompleted(2, "b")
            .run((ctx, in) -> ctx.callActivity("A", "in", String.class).await());

    assertThat(nondeterminism(r).message())
        .isEqualTo(
            PREFIX + "2: history has ACTIVITY_SCHEDULED B, code issued nothing (it completed)");
  }

  @Test
  void replay_codeSuspendsBeforeRecordedCommand_bouncedItSuspendedAt() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .activityScheduled(2, "B", "in")
            .newTurn(T2)
            .run((ctx, in) -> ctx.callActivity("A", "in", String.class).await());

    assertThat(nondeterminism(r).message())
        .isEqualTo(
            PREFIX
                + "2: history has ACTIVITY_SCHEDULED B, code issued nothing (it suspended at #1)");
  }

  @Test
  void replay_codeFailsBeforeRecordedCommand_bouncedNotFailed() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .run(
                (ctx, in) -> {
                  throw new IllegalStateException("new code throws early");
                });

    assertThat(nondeterminism(r).message())
        .startsWith(PREFIX + "1: history has ACTIVITY_SCHEDULED A, code issued nothing (it ");
  }

  @Test
  void replay_codeContinuesAsNewBeforeRecordedCommand_bounced() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .run((ctx, in) -> ctx.continueAsNew("again"));

    assertThat(nondeterminism(r).message())
        .startsWith(PREFIX + "1: history has ACTIVITY_SCHEDULED A, code issued nothing (it ");
  }

  @Test
  void replay_recordedTimerNotIssued_messageNamesPurpose() {
    RunResult r =
        Histories.start()
            .timerCreated(1, T1.plusSeconds(5))
            .newTurn(T2)
            .timerFired(1)
            .run((ctx, in) -> "done");

    assertThat(nondeterminism(r).message())
        .isEqualTo(
            PREFIX + "1: history has TIMER_CREATED USER, code issued nothing (it completed)");
  }

  // ---- (c) a completion that does not fit its command

  @Test
  void replay_timerFiredForActivitySeq_bounced() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .timerFired(1)
            .run((ctx, in) -> ctx.callActivity("A", "in", String.class).await());

    assertThat(nondeterminism(r).message()).contains("TIMER_FIRED").contains("#1");
  }

  @Test
  void replay_activityCompletedForTimerSeq_bounced() {
    RunResult r =
        Histories.start()
            .timerCreated(1, T1.plusSeconds(5))
            .newTurn(T2)
            .activityCompleted(1, "a")
            .run(
                (ctx, in) -> {
                  ctx.createTimer(Duration.ofSeconds(5)).await();
                  return "x";
                });

    nondeterminism(r);
  }

  @Test
  void replay_childCompletedForActivitySeq_bounced() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .childCompleted(1, "c")
            .run((ctx, in) -> ctx.callActivity("A", "in", String.class).await());

    nondeterminism(r);
  }

  @Test
  void replay_activityCompletedForEventTimeoutSeq_bounced() {
    RunResult r =
        Histories.start()
            .eventTimeoutCreated(1, T1.plusSeconds(60), "approved")
            .newTurn(T2)
            .activityCompleted(1, "a")
            .run(
                (ctx, in) ->
                    ctx.waitForEvent("approved", String.class, Duration.ofMinutes(1))
                        .await()
                        .orElse("timed out"));

    nondeterminism(r);
  }

  @Test
  void replay_completionForSeqWithoutCommand_bounced() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(5, "from nowhere")
            .run((ctx, in) -> ctx.callActivity("A", "in", String.class).await());

    assertThat(nondeterminism(r).message()).contains("#5");
  }

  @Test
  void replay_completionMismatchSwallowedByCatchThrowable_stillBounced() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .timerFired(1)
            .run(
                (ctx, in) -> {
                  try {
                    ctx.callActivity("A", "in", String.class).await();
                  } catch (Throwable swallowed) {
                    // forbidden
                  }
                  return "went on";
                });

    nondeterminism(r);
  }

  // ---- patches

  private static final Orchestration<Object, String> PATCHED_CODE =
      (ctx, in) -> {
        Task<String> t =
            ctx.patched("use-b")
                ? ctx.callActivity("B", "in", String.class)
                : ctx.callActivity("A", "in", String.class);
        return t.await();
      };

  @Test
  void patched_newExecution_trueAndPatchAppliedEmitted() {
    RunResult r = Histories.start().run(PATCHED_CODE);

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events())
        .extracting(Event::kind)
        .containsExactly(EventKind.PATCH_APPLIED, EventKind.ACTIVITY_SCHEDULED);
    EventCodec.Stored patch = stored(s.events().get(0));
    assertThat(patch.seq()).isEqualTo(1L);
    assertThat(patch.data().get("seq").asLong()).isEqualTo(1L);
    assertThat(patch.data().get("changeId").asText()).isEqualTo("use-b");
    assertThat(stored(s.events().get(1)).name()).isEqualTo("B");
    assertThat(stored(s.events().get(1)).seq()).isEqualTo(2L);
  }

  @Test
  void patched_historyHasTheMarker_trueAndNothingEmitted() {
    RunResult r =
        Histories.start()
            .patchApplied(1, "use-b")
            .activityScheduled(2, "B", "in")
            .newTurn(T2)
            .activityCompleted(2, "b")
            .run(PATCHED_CODE);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("b");
    assertThat(c.events()).isEmpty();
  }

  @Test
  void patched_historyRecordedBeforeThePatch_falseAndNoEvent() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(1, "a")
            .run(PATCHED_CODE);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("a");
    assertThat(c.events()).isEmpty();
  }

  @Test
  void patched_historyRecordedBeforeThePatchStillRunning_falseAndNextCommandsKeepTheirSeqs() {
    List<Boolean> seen = new ArrayList<>();
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(1, "a")
            .run(
                (ctx, in) -> {
                  boolean p = ctx.patched("use-b");
                  seen.add(p);
                  ctx.callActivity(p ? "B" : "A", "in", String.class).await();
                  return ctx.callActivity("C", "in", String.class).await();
                });

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(seen).containsExactly(false);
    assertThat(s.events())
        .singleElement()
        .satisfies(e -> assertThat(stored(e).seq()).isEqualTo(2L));
  }

  @Test
  void patched_firstTurnCommittedThenReplayed_trueAgain() {
    Histories h = Histories.start();
    RunResult first = h.run(PATCHED_CODE);

    RunResult second = h.commit(first).newTurn(T2).activityCompleted(2, "b").run(PATCHED_CODE);

    assertThat(as(RunResult.Completed.class, second).output().asText()).isEqualTo("b");
  }

  @Test
  void patched_otherChangeIdInHistory_falseThenThatOneMatches() {
    List<Boolean> seen = new ArrayList<>();
    RunResult r =
        Histories.start()
            .patchApplied(1, "other")
            .newTurn(T2)
            .run(
                (ctx, in) -> {
                  seen.add(ctx.patched("mine"));
                  seen.add(ctx.patched("other"));
                  return "x";
                });

    assertThat(seen).containsExactly(false, true);
    assertThat(as(RunResult.Completed.class, r).events()).isEmpty();
  }

  @Test
  void deprecatePatch_historyHasTheMarker_skipsItAndReplays() {
    RunResult r =
        Histories.start()
            .patchApplied(1, "use-b")
            .activityScheduled(2, "B", "in")
            .newTurn(T2)
            .activityCompleted(2, "b")
            .run(
                (ctx, in) -> {
                  ctx.deprecatePatch("use-b");
                  return ctx.callActivity("B", "in", String.class).await();
                });

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("b");
    assertThat(c.events()).isEmpty();
  }

  @Test
  void deprecatePatch_newExecution_issuesNothing() {
    RunResult r =
        Histories.start()
            .run(
                (ctx, in) -> {
                  ctx.deprecatePatch("use-b");
                  return ctx.callActivity("B", "in", String.class).await();
                });

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.kind()).isEqualTo(EventKind.ACTIVITY_SCHEDULED);
              assertThat(stored(e).seq()).isEqualTo(1L);
            });
  }

  @Test
  void patchRemovedWithoutDeprecate_historyHasMarker_bounced() {
    RunResult r =
        Histories.start()
            .patchApplied(1, "use-b")
            .activityScheduled(2, "B", "in")
            .newTurn(T2)
            .run((ctx, in) -> ctx.callActivity("B", "in", String.class).await());

    assertThat(nondeterminism(r).message())
        .isEqualTo(PREFIX + "1: history has PATCH_APPLIED use-b, code issued ACTIVITY_SCHEDULED B");
  }
}
