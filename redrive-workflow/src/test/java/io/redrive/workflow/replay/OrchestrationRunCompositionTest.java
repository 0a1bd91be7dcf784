package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.T1;
import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.T3;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.threw;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.workflow.ActivityFailedException;
import io.redrive.workflow.AllOfFailedException;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.Task;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** anyOf and allOf. */
class OrchestrationRunCompositionTest {

  /** A timer (seq 2) racing an activity (seq 1): returns which one won. */
  private static final Orchestration<Object, String> RACE =
      (ctx, in) -> {
        Task<String> work = ctx.callActivity("A", "in", String.class);
        Task<Void> deadline = ctx.createTimer(Duration.ofMinutes(5));
        Task<?> winner = ctx.anyOf(List.of(deadline, work)).await();
        return winner == deadline ? "timeout" : "work:" + work.await();
      };

  private static Histories raceScheduled() {
    return Histories.start(T1).activityScheduled(1, "A", "in").timerCreated(2, T1.plusSeconds(300));
  }

  @Test
  void anyOf_firstTurn_issuesBothCommandsAndSuspends() {
    RunResult r = Histories.start(T1).run(RACE);

    assertThat(as(RunResult.Suspended.class, r).events())
        .extracting(Event::kind)
        .containsExactly(EventKind.ACTIVITY_SCHEDULED, EventKind.TIMER_CREATED);
  }

  @Test
  void anyOf_timerFiredBeforeActivityCompleted_timerWins() {
    RunResult r = raceScheduled().newTurn(T2).timerFired(2).activityCompleted(1, "late").run(RACE);

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("timeout");
  }

  @Test
  void anyOf_activityCompletedBeforeTimerFired_activityWins() {
    RunResult r = raceScheduled().newTurn(T2).activityCompleted(1, "fast").timerFired(2).run(RACE);

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("work:fast");
  }

  @Test
  void anyOf_completionsInEarlierTurns_winnerIsFirstInHistory() {
    RunResult timerFirst =
        raceScheduled().turn(T2).timerFired(2).newTurn(T3).activityCompleted(1, "late").run(RACE);
    RunResult workFirst =
        raceScheduled().turn(T2).activityCompleted(1, "fast").newTurn(T3).timerFired(2).run(RACE);

    assertThat(as(RunResult.Completed.class, timerFirst).output().asText()).isEqualTo("timeout");
    assertThat(as(RunResult.Completed.class, workFirst).output().asText()).isEqualTo("work:fast");
  }

  @Test
  void anyOf_bothAlreadyDoneWhenAwaited_winnerIsFirstInHistory() {
    Orchestration<Object, String> code =
        (ctx, in) -> {
          Task<String> work = ctx.callActivity("A", "in", String.class);
          Task<Void> deadline = ctx.createTimer(Duration.ofMinutes(5));
          Task<String> last = ctx.callActivity("C", "in", String.class);
          last.await();
          Task<?> winner = ctx.anyOf(List.of(work, deadline)).await();
          return winner == deadline ? "timeout" : "work";
        };

    RunResult r =
        raceScheduled()
            .activityScheduled(3, "C", "in")
            .newTurn(T2)
            .timerFired(2)
            .activityCompleted(1, "a")
            .activityCompleted(3, "c")
            .run(code);

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("timeout");
  }

  @Test
  void anyOf_neitherDone_suspends() {
    RunResult r = raceScheduled().newTurn(T2).run(RACE);

    assertThat(as(RunResult.Suspended.class, r).events()).isEmpty();
  }

  @Test
  void anyOf_eventWithTimeoutRacingActivity_eventWins() {
    Orchestration<Object, String> code =
        (ctx, in) -> {
          Task<String> work = ctx.callActivity("A", "in", String.class);
          Task<Optional<String>> approval =
              ctx.waitForEvent("approved", String.class, Duration.ofHours(1));
          Task<?> winner = ctx.anyOf(List.of(work, approval)).await();
          return winner == approval ? "event:" + approval.await().orElse("-") : "work";
        };

    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .eventTimeoutCreated(2, T1.plusSeconds(3600), "approved")
            .newTurn(T2)
            .eventRaised("approved", "ok")
            .activityCompleted(1, "a")
            .run(code);

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("event:ok");
  }

  // ---- allOf

  private static final Orchestration<Object, List<String>> FAN_OUT =
      (ctx, in) -> {
        List<Task<String>> parts = new ArrayList<>();
        parts.add(ctx.callActivity("A", "1", String.class));
        parts.add(ctx.callActivity("B", "2", String.class));
        parts.add(ctx.callActivity("C", "3", String.class));
        return ctx.allOf(parts).await();
      };

  private static Histories fannedOut() {
    return Histories.start(T1)
        .activityScheduled(1, "A", "1")
        .activityScheduled(2, "B", "2")
        .activityScheduled(3, "C", "3");
  }

  @Test
  void allOf_completedInReverseOrder_returnsInArgumentOrder() {
    RunResult r =
        fannedOut()
            .newTurn(T2)
            .activityCompleted(3, "c")
            .activityCompleted(1, "a")
            .activityCompleted(2, "b")
            .run(FAN_OUT);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output()).hasSize(3);
    assertThat(c.output().get(0).asText()).isEqualTo("a");
    assertThat(c.output().get(1).asText()).isEqualTo("b");
    assertThat(c.output().get(2).asText()).isEqualTo("c");
  }

  @Test
  void allOf_oneStillMissing_suspends() {
    RunResult r =
        fannedOut().newTurn(T2).activityCompleted(3, "c").activityCompleted(1, "a").run(FAN_OUT);

    assertThat(as(RunResult.Suspended.class, r).events()).isEmpty();
  }

  @Test
  void allOf_oneFailedOthersPending_suspendsUntilAllFinished() {
    RunResult r = fannedOut().newTurn(T2).activityFailed(2, threw("b broke")).run(FAN_OUT);

    assertThat(r).isInstanceOf(RunResult.Suspended.class);
  }

  @Test
  void allOf_oneFailed_throwsAllOfFailedAfterAllFinishedAndCatchable() {
    List<Object> seen = new ArrayList<>();
    Orchestration<Object, String> code =
        (ctx, in) -> {
          List<Task<String>> parts = new ArrayList<>();
          parts.add(ctx.callActivity("A", "1", String.class));
          parts.add(ctx.callActivity("B", "2", String.class));
          parts.add(ctx.callActivity("C", "3", String.class));
          try {
            ctx.allOf(parts).await();
            return "no failure?";
          } catch (AllOfFailedException e) {
            seen.add(parts.stream().allMatch(Task::isDone));
            seen.add(e.failure().message());
            seen.add(e.failures().get(0));
            seen.add(e.failures().get(1).getClass());
            seen.add(e.failures().get(2));
            return "partial";
          }
        };

    RunResult r =
        fannedOut()
            .newTurn(T2)
            .activityFailed(2, threw("b broke"))
            .activityCompleted(1, "a")
            .activityCompleted(3, "c")
            .run(code);

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("partial");
    assertThat(seen).containsExactly(true, "b broke", null, ActivityFailedException.class, null);
  }

  @Test
  void allOf_oneFailedUncaught_failsTheOrchestration() {
    RunResult r =
        fannedOut()
            .newTurn(T2)
            .activityCompleted(1, "a")
            .activityFailed(2, threw("b broke"))
            .activityCompleted(3, "c")
            .run(FAN_OUT);

    RunResult.Failed f = as(RunResult.Failed.class, r);
    assertThat(f.failure().type()).isEqualTo(AllOfFailedException.class.getName());
    assertThat(f.failure().cause()).isNotNull();
    assertThat(f.failure().cause().message()).isEqualTo("b broke");
  }

  @Test
  void allOf_empty_returnsEmptyList() {
    RunResult r =
        Histories.start().run((ctx, in) -> ctx.allOf(new ArrayList<Task<String>>()).await());

    assertThat(as(RunResult.Completed.class, r).output()).isEmpty();
  }
}
