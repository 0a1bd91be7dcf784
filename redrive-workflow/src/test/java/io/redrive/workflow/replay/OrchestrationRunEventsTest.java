package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.T1;
import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.T3;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.stored;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.workflow.Task;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.TimerPurpose;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** External events: buffering, FIFO, timeouts. */
class OrchestrationRunEventsTest {

  @Test
  void waitForEvent_firstTurnNothingRaised_suspendsWithoutCommands() {
    RunResult r =
        Histories.start().run((ctx, in) -> ctx.waitForEvent("approved", String.class).await());

    assertThat(as(RunResult.Suspended.class, r).events()).isEmpty();
  }

  @Test
  void waitForEvent_raisedInNewTurn_returnsPayload() {
    RunResult r =
        Histories.start()
            .newTurn(T2)
            .eventRaised("approved", "by-alice")
            .run((ctx, in) -> ctx.waitForEvent("approved", String.class).await());

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("by-alice");
  }

  @Test
  void waitForEvent_raisedBeforeTheWait_bufferedEventIsTaken() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .eventRaised("approved", "early")
            .activityCompleted(1, "a")
            .run(
                (ctx, in) -> {
                  String a = ctx.callActivity("A", "in", String.class).await();
                  Task<String> approval = ctx.waitForEvent("approved", String.class);
                  boolean doneAtOnce = approval.isDone();
                  return a + "/" + approval.await() + "/" + doneAtOnce;
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("a/early/true");
  }

  @Test
  void waitForEvent_raisedInEarlierStoredTurn_bufferedEventIsTaken() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .eventRaised("approved", "stored")
            .newTurn(T3)
            .activityCompleted(1, "a")
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in", String.class).await();
                  return ctx.waitForEvent("approved", String.class).await();
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("stored");
  }

  @Test
  void waitForEvent_twoRaisedSameName_twoWaitsTakeThemFifo() {
    RunResult r =
        Histories.start()
            .newTurn(T2)
            .eventRaised("item", "first")
            .eventRaised("other", "x")
            .eventRaised("item", "second")
            .run(
                (ctx, in) -> {
                  String a = ctx.waitForEvent("item", String.class).await();
                  String b = ctx.waitForEvent("item", String.class).await();
                  return a + "," + b;
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("first,second");
  }

  @Test
  void waitForEvent_twoWaitsIssuedBeforeAwait_takeEventsFifo() {
    RunResult r =
        Histories.start()
            .newTurn(T2)
            .eventRaised("item", 1)
            .eventRaised("item", 2)
            .run(
                (ctx, in) -> {
                  Task<Integer> first = ctx.waitForEvent("item", Integer.class);
                  Task<Integer> second = ctx.waitForEvent("item", Integer.class);
                  int b = second.await();
                  int a = first.await();
                  return a * 10 + b;
                });

    assertThat(as(RunResult.Completed.class, r).output().asInt()).isEqualTo(12);
  }

  @Test
  void waitForEvent_otherNameRaised_doesNotWake() {
    RunResult r =
        Histories.start()
            .newTurn(T2)
            .eventRaised("rejected", "no")
            .run((ctx, in) -> ctx.waitForEvent("approved", String.class).await());

    assertThat(r).isInstanceOf(RunResult.Suspended.class);
  }

  @Test
  void waitForEvent_payloadObject_decodesIntoType() {
    record Approval(String by, int level) {}
    RunResult r =
        Histories.start()
            .newTurn(T2)
            .eventRaised("approved", new Approval("bob", 2))
            .run((ctx, in) -> ctx.waitForEvent("approved", Approval.class).await().by());

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("bob");
  }

  // ---- with a timeout

  @Test
  void waitForEventWithTimeout_firstTurn_issuesEventTimeoutTimer() {
    RunResult r =
        Histories.start(T1)
            .run(
                (ctx, in) ->
                    ctx.waitForEvent("approved", String.class, Duration.ofHours(1)).await());

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events()).hasSize(1);
    EventCodec.Stored e = stored(s.events().get(0));
    assertThat(e.kind()).isEqualTo(EventKind.TIMER_CREATED);
    assertThat(e.seq()).isEqualTo(1L);
    assertThat(e.data().get("purpose").asText()).isEqualTo(TimerPurpose.EVENT_TIMEOUT.name());
    assertThat(e.data().get("event").asText()).isEqualTo("approved");
    assertThat(Instant.parse(e.data().get("fireAt").asText())).isEqualTo(T1.plusSeconds(3600));
  }

  @Test
  void waitForEventWithTimeout_eventAlreadyBuffered_takesItWithoutTimer() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .eventRaised("approved", "early")
            .activityCompleted(1, "a")
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in", String.class).await();
                  return ctx.waitForEvent("approved", String.class, Duration.ofHours(1))
                      .await()
                      .orElse("timed out");
                });

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("early");
    assertThat(c.events()).isEmpty();
  }

  @Test
  void waitForEventWithTimeout_eventBeforeTimer_returnsValue() {
    RunResult r =
        Histories.start(T1)
            .eventTimeoutCreated(1, T1.plusSeconds(3600), "approved")
            .newTurn(T2)
            .eventRaised("approved", "yes")
            .run(
                (ctx, in) ->
                    ctx.waitForEvent("approved", String.class, Duration.ofHours(1))
                        .await()
                        .orElse("timed out"));

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("yes");
  }

  @Test
  void waitForEventWithTimeout_eventBeforeTimer_laterTimerFiredIsHarmless() {
    RunResult r =
        Histories.start(T1)
            .eventTimeoutCreated(1, T1.plusSeconds(3600), "approved")
            .turn(T2)
            .eventRaised("approved", "yes")
            .timerCreated(2, T2.plusSeconds(10))
            .newTurn(T3)
            .eventTimeoutFired(1)
            .timerFired(2)
            .run(
                (ctx, in) -> {
                  Optional<String> v =
                      ctx.waitForEvent("approved", String.class, Duration.ofHours(1)).await();
                  ctx.createTimer(Duration.ofSeconds(10)).await();
                  return v.orElse("timed out");
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("yes");
  }

  @Test
  void waitForEventWithTimeout_timerFiredFirst_emptyAndLaterEventGoesToNextWait() {
    List<Optional<String>> seen = new ArrayList<>();
    RunResult r =
        Histories.start(T1)
            .eventTimeoutCreated(1, T1.plusSeconds(60), "approved")
            .newTurn(T2)
            .eventTimeoutFired(1)
            .eventRaised("approved", "late")
            .run(
                (ctx, in) -> {
                  seen.add(
                      ctx.waitForEvent("approved", String.class, Duration.ofMinutes(1)).await());
                  return ctx.waitForEvent("approved", String.class).await();
                });

    assertThat(seen).containsExactly(Optional.empty());
    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("late");
  }

  @Test
  void waitForEventWithTimeout_timerFiredFirstAndEventInLaterTurn_nextWaitGetsIt() {
    RunResult r =
        Histories.start(T1)
            .eventTimeoutCreated(1, T1.plusSeconds(60), "approved")
            .turn(T2)
            .eventTimeoutFired(1)
            .newTurn(T3)
            .eventRaised("approved", "late")
            .run(
                (ctx, in) -> {
                  Optional<String> first =
                      ctx.waitForEvent("approved", String.class, Duration.ofMinutes(1)).await();
                  return first.orElse("none")
                      + "/"
                      + ctx.waitForEvent("approved", String.class).await();
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("none/late");
  }

  @Test
  void waitForEventWithTimeout_timedOutEventRaisedLater_carriedByContinueAsNew() {
    RunResult r =
        Histories.start(T1)
            .eventTimeoutCreated(1, T1.plusSeconds(60), "approved")
            .newTurn(T2)
            .eventTimeoutFired(1)
            .eventRaised("approved", "late")
            .run(
                (ctx, in) -> {
                  ctx.waitForEvent("approved", String.class, Duration.ofMinutes(1)).await();
                  return ctx.continueAsNew("next");
                });

    RunResult.ContinuedAsNew c = as(RunResult.ContinuedAsNew.class, r);
    assertThat(c.carriedEvents()).hasSize(1);
    assertThat(c.carriedEvents().get(0).name()).isEqualTo("approved");
    assertThat(c.carriedEvents().get(0).payload().asText()).isEqualTo("late");
  }

  @Test
  void carriedEvents_fromContinueAsNew_areTakenBeforeNewOnes() {
    RunResult r =
        Histories.start()
            .carried("item", "carried-1")
            .newTurn(T2)
            .eventRaised("item", "new-1")
            .run(
                (ctx, in) -> {
                  String a = ctx.waitForEvent("item", String.class).await();
                  String b = ctx.waitForEvent("item", String.class).await();
                  return a + "," + b;
                });

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("carried-1,new-1");
  }
}
