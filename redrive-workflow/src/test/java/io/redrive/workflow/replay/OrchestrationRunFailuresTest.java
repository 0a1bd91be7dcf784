package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.T1;
import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.T3;
import static io.redrive.workflow.replay.Histories.T4;
import static io.redrive.workflow.replay.Histories.T5;
import static io.redrive.workflow.replay.Histories.T6;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.stored;
import static io.redrive.workflow.replay.Histories.threw;
import static io.redrive.workflow.replay.Histories.threwFinal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.PayloadTooLargeException;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.workflow.ActivityFailedException;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.HistoryUnreadableException;
import io.redrive.workflow.history.TimerPurpose;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Activity failures and retries, payload limits, undecodable payloads. */
class OrchestrationRunFailuresTest {

  // ---- ActivityFailedException

  private static final Orchestration<Object, String> CATCHING =
      (ctx, in) -> {
        try {
          return ctx.callActivity("A", "in", String.class).await();
        } catch (ActivityFailedException e) {
          return "caught";
        }
      };

  @Test
  void activityFailed_codeCatchesActivityFailedException_completesWithItsValue() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityFailed(1, threw("gateway down"))
            .run(CATCHING);

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("caught");
  }

  @Test
  void activityFailed_exceptionCarriesTheRecordedFailure() {
    List<WorkflowFailure> seen = new ArrayList<>();
    Histories.start()
        .activityScheduled(1, "A", "in")
        .newTurn(T2)
        .activityFailed(1, threw("gateway down"))
        .run(
            (ctx, in) -> {
              try {
                return ctx.callActivity("A", "in", String.class).await();
              } catch (ActivityFailedException e) {
                seen.add(e.failure());
                return "caught";
              }
            });

    assertThat(seen).singleElement().isEqualTo(threw("gateway down"));
  }

  @Test
  void activityFailed_uncaught_failsWithCause() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityFailed(1, threw("gateway down"))
            .run((ctx, in) -> ctx.callActivity("A", "in", String.class).await());

    WorkflowFailure f = as(RunResult.Failed.class, r).failure();
    assertThat(f.reason()).isEqualTo(WorkflowFailure.ORCHESTRATION_EXCEPTION);
    assertThat(f.type()).isEqualTo(ActivityFailedException.class.getName());
    assertThat(f.cause()).isEqualTo(threw("gateway down"));
  }

  @Test
  void activityFailed_retryableWithoutRetryPolicy_throwsAtOnce() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityFailed(1, threw("gateway down"))
            .run(CATCHING);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.events()).isEmpty();
  }

  // ---- RetryPolicy

  private static final ActivityOptions RETRY_3 =
      ActivityOptions.defaults().withRetry(RetryPolicy.fixed(3, Duration.ofSeconds(1)));

  private static final Orchestration<Object, String> RETRYING =
      (ctx, in) -> {
        try {
          return ctx.callActivity("A", "in", new TypeReference<String>() {}, RETRY_3).await();
        } catch (ActivityFailedException e) {
          return "gave up: " + e.failure().message();
        }
      };

  @Test
  void retryPolicy_retryableFailure_emitsRetryTimerOnTheActivitySeq() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityFailed(1, threw("try 0"), 0)
            .run(RETRYING);

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events()).hasSize(1);
    EventCodec.Stored e = stored(s.events().get(0));
    assertThat(e.kind()).isEqualTo(EventKind.TIMER_CREATED);
    assertThat(e.seq()).isEqualTo(1L);
    assertThat(e.data().get("seq").asLong()).isEqualTo(1L);
    assertThat(e.data().get("purpose").asText()).isEqualTo(TimerPurpose.RETRY.name());
    assertThat(e.data().get("retryNumber").asInt()).isEqualTo(1);
    assertThat(Instant.parse(e.data().get("fireAt").asText())).isEqualTo(T2.plusSeconds(1));
  }

  @Test
  void retryPolicy_retryTimerFired_emitsActivityScheduledWithRetryNumber() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityFailed(1, threw("try 0"), 0)
            .retryTimerCreated(1, T2.plusSeconds(1), 1)
            .newTurn(T3)
            .retryTimerFired(1, 1)
            .run(RETRYING);

    RunResult.Suspended s = as(RunResult.Suspended.class, r);
    assertThat(s.events()).hasSize(1);
    EventCodec.Stored e = stored(s.events().get(0));
    assertThat(e.kind()).isEqualTo(EventKind.ACTIVITY_SCHEDULED);
    assertThat(e.seq()).isEqualTo(1L);
    assertThat(e.name()).isEqualTo("A");
    assertThat(e.data().get("retryNumber").asInt()).isEqualTo(1);
    assertThat(e.data().get("input").asText()).isEqualTo("in");
  }

  @Test
  void retryPolicy_retrySucceeds_completesWithItsResult() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityFailed(1, threw("try 0"), 0)
            .retryTimerCreated(1, T2.plusSeconds(1), 1)
            .turn(T3)
            .retryTimerFired(1, 1)
            .activityScheduled(1, "A", "in", 1)
            .newTurn(T4)
            .activityCompleted(1, "second time lucky")
            .run(RETRYING);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("second time lucky");
    assertThat(c.events()).isEmpty();
  }

  @Test
  void retryPolicy_thirdFailure_throwsActivityFailedException() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityFailed(1, threw("try 0"), 0)
            .retryTimerCreated(1, T2.plusSeconds(1), 1)
            .turn(T3)
            .retryTimerFired(1, 1)
            .activityScheduled(1, "A", "in", 1)
            .turn(T4)
            .activityFailed(1, threw("try 1"), 1)
            .retryTimerCreated(1, T4.plusSeconds(1), 2)
            .turn(T5)
            .retryTimerFired(1, 2)
            .activityScheduled(1, "A", "in", 2)
            .newTurn(T6)
            .activityFailed(1, threw("try 2"), 2)
            .run(RETRYING);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("gave up: try 2");
    assertThat(c.events()).isEmpty();
  }

  @Test
  void retryPolicy_wholeCycleThroughCommits_replaysAndGivesUpAfterThreeTries() {
    Histories h = Histories.start(T1);
    List<RunResult> results = new ArrayList<>();
    results.add(h.run(RETRYING)); // schedules try 0
    h.commit(results.get(0)).newTurn(T2).activityFailed(1, threw("try 0"), 0);
    results.add(h.run(RETRYING)); // retry timer 1
    h.commit(results.get(1)).newTurn(T3).retryTimerFired(1, 1);
    results.add(h.run(RETRYING)); // try 1
    h.commit(results.get(2)).newTurn(T4).activityFailed(1, threw("try 1"), 1);
    results.add(h.run(RETRYING)); // retry timer 2
    h.commit(results.get(3)).newTurn(T5).retryTimerFired(1, 2);
    results.add(h.run(RETRYING)); // try 2
    h.commit(results.get(4)).newTurn(T6).activityFailed(1, threw("try 2"), 2);
    RunResult last = h.run(RETRYING);

    List<String> emitted = new ArrayList<>();
    for (RunResult r : results) {
      as(RunResult.Suspended.class, r)
          .events()
          .forEach(
              e ->
                  emitted.add(
                      e.kind()
                          + "#"
                          + stored(e).seq()
                          + "/"
                          + stored(e).data().get("retryNumber")));
    }
    assertThat(emitted)
        .containsExactly(
            "ACTIVITY_SCHEDULED#1/0",
            "TIMER_CREATED#1/1",
            "ACTIVITY_SCHEDULED#1/1",
            "TIMER_CREATED#1/2",
            "ACTIVITY_SCHEDULED#1/2");
    assertThat(as(RunResult.Completed.class, last).output().asText()).isEqualTo("gave up: try 2");
  }

  @Test
  void retryPolicy_nonRetryableFailure_throwsWithoutRetryTimer() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityFailed(1, threwFinal("declined"), 0)
            .run(RETRYING);

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("gave up: declined");
    assertThat(c.events()).isEmpty();
  }

  @Test
  void retryPolicy_retryTimerPending_suspendsWithNothingNew() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityFailed(1, threw("try 0"), 0)
            .retryTimerCreated(1, T2.plusSeconds(1), 1)
            .newTurn(T3)
            .eventRaised("noise", 1)
            .run(RETRYING);

    assertThat(as(RunResult.Suspended.class, r).events()).isEmpty();
  }

  @Test
  void retryPolicy_failureAsksForLongerRetryAfter_retryTimerHonoursIt() {
    WorkflowFailure slowDown =
        new WorkflowFailure(
            "HANDLER_EXCEPTION",
            "application",
            "rate limited",
            null,
            null,
            true,
            30_000L,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            List.of(),
            null,
            null,
            null);
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityFailed(1, slowDown, 0)
            .run(RETRYING);

    EventCodec.Stored e = stored(as(RunResult.Suspended.class, r).events().get(0));
    assertThat(Instant.parse(e.data().get("fireAt").asText())).isEqualTo(T2.plusSeconds(30));
  }

  @Test
  void retryPolicy_totalTimeoutPassedByTheFailingTurn_throwsWithoutRetry() {
    ActivityOptions bounded =
        ActivityOptions.defaults()
            .withRetry(
                RetryPolicy.fixed(5, Duration.ofSeconds(1)).totalTimeout(Duration.ofMinutes(10)));
    Orchestration<Object, String> code =
        (ctx, in) -> {
          try {
            return ctx.callActivity("A", "in", new TypeReference<String>() {}, bounded).await();
          } catch (ActivityFailedException e) {
            return "gave up";
          }
        };

    RunResult withinTimeout =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .newTurn(T2) // T1 + 1 min
            .activityFailed(1, threw("boom"), 0)
            .run(code);
    RunResult pastTimeout =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .newTurn(T3) // T1 + 1 h
            .activityFailed(1, threw("boom"), 0)
            .run(code);

    assertThat(as(RunResult.Suspended.class, withinTimeout).events())
        .extracting(Event::kind)
        .containsExactly(EventKind.TIMER_CREATED);
    assertThat(as(RunResult.Completed.class, pastTimeout).output().asText()).isEqualTo("gave up");
  }

  @Test
  void retryPolicy_retryTimerIsNotACommand_nextCallTakesTheNextSeq() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .turn(T2)
            .activityFailed(1, threw("try 0"), 0)
            .retryTimerCreated(1, T2.plusSeconds(1), 1)
            .turn(T3)
            .retryTimerFired(1, 1)
            .activityScheduled(1, "A", "in", 1)
            .newTurn(T4)
            .activityCompleted(1, "a")
            .run(
                (ctx, in) -> {
                  ctx.callActivity("A", "in", new TypeReference<String>() {}, RETRY_3).await();
                  return ctx.callActivity("B", "in", String.class).await();
                });

    EventCodec.Stored e = stored(as(RunResult.Suspended.class, r).events().get(0));
    assertThat(e.name()).isEqualTo("B");
    assertThat(e.seq()).isEqualTo(2L);
  }

  @Test
  void retryPolicy_options_queueAndTimeoutRecordedOnEveryTry() {
    ActivityOptions options = RETRY_3.withQueue("wf.payments").withTimeout(Duration.ofSeconds(20));
    Orchestration<Object, String> code =
        (ctx, in) -> ctx.callActivity("A", "in", new TypeReference<String>() {}, options).await();
    Histories h = Histories.start(T1);
    RunResult first = h.run(code);
    h.commit(first).newTurn(T2).activityFailed(1, threw("try 0"), 0);
    RunResult second = h.run(code);
    h.commit(second).newTurn(T3).retryTimerFired(1, 1);
    RunResult third = h.run(code);

    EventCodec.Stored original = stored(as(RunResult.Suspended.class, first).events().get(0));
    EventCodec.Stored retried = stored(as(RunResult.Suspended.class, third).events().get(0));
    for (EventCodec.Stored e : List.of(original, retried)) {
      assertThat(e.data().get("queue").asText()).isEqualTo("wf.payments");
      assertThat(e.data().get("timeoutMs").asLong()).isEqualTo(20_000L);
    }
    assertThat(retried.data().get("retryNumber").asInt()).isEqualTo(1);
  }

  // ---- payload limits

  @Test
  void callActivity_inputOverPayloadLimit_throwsAtCallSiteAndEmitsNothing() {
    List<Throwable> seen = new ArrayList<>();
    RunResult r =
        Histories.start()
            .payloads(Histories.payloads(64))
            .run(
                (ctx, in) -> {
                  try {
                    ctx.callActivity("A", "x".repeat(100), String.class);
                  } catch (PayloadTooLargeException e) {
                    seen.add(e);
                  }
                  return "handled";
                });

    RunResult.Completed c = as(RunResult.Completed.class, r);
    assertThat(c.output().asText()).isEqualTo("handled");
    assertThat(c.events()).isEmpty();
    assertThat(seen).singleElement().isInstanceOf(PayloadTooLargeException.class);
  }

  @Test
  void callActivity_inputOverPayloadLimitCaught_laterCommandsReplay() {
    Orchestration<Object, String> code =
        (ctx, in) -> {
          try {
            ctx.callActivity("A", "x".repeat(100), String.class);
          } catch (PayloadTooLargeException e) {
            // fall back to a smaller call
          }
          return ctx.callActivity("B", "small", String.class).await();
        };
    Histories h = Histories.start().payloads(Histories.payloads(64));
    RunResult first = h.run(code);

    assertThat(as(RunResult.Suspended.class, first).events())
        .extracting(e -> stored(e).name())
        .containsExactly("B");
    RunResult second =
        h.commit(first)
            .newTurn(T2)
            .activityCompleted(stored(first.events().get(0)).seq(), "b")
            .run(code);
    assertThat(as(RunResult.Completed.class, second).output().asText()).isEqualTo("b");
  }

  @Test
  void output_overPayloadLimit_failedPayloadTooLarge() {
    RunResult r =
        Histories.start().payloads(Histories.payloads(64)).run((ctx, in) -> "y".repeat(100));

    WorkflowFailure f = as(RunResult.Failed.class, r).failure();
    assertThat(f.reason()).isEqualTo(WorkflowFailure.PAYLOAD_TOO_LARGE);
    assertThat(f.message()).contains("output");
  }

  @Test
  void output_notSerializable_failedInsteadOfThrowingFromRun() {
    RunResult r = Histories.start().run((ctx, in) -> new Object());

    assertThat(r).isInstanceOf(RunResult.Failed.class);
  }

  // ---- undecodable recorded payloads

  @Test
  void activityResult_noLongerDecodesIntoType_bouncedSerializationError() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(1, "not a number")
            .run((ctx, in) -> ctx.callActivity("A", "in", Integer.class).await());

    RunResult.Bounced b = as(RunResult.Bounced.class, r);
    assertThat(b.reason()).isEqualTo("SERIALIZATION_ERROR");
    assertThat(b.message())
        .isEqualTo(
            "activity A#1 result does not decode as java.lang.Integer: Cannot deserialize value of"
                + " type `java.lang.Integer` from String \"not a number\": not a valid"
                + " `java.lang.Integer` value");
  }

  @Test
  void activityResult_noLongerDecodesAndCodeCatchesThrowable_stillBounced() {
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(1, "not a number")
            .run(
                (ctx, in) -> {
                  try {
                    ctx.callActivity("A", "in", Integer.class).await();
                  } catch (Throwable swallowed) {
                    // forbidden, must not hide the replay failure
                  }
                  ctx.callActivity("B", "in", Integer.class);
                  return "went on";
                });

    assertThat(as(RunResult.Bounced.class, r).reason()).isEqualTo("SERIALIZATION_ERROR");
  }

  @Test
  void activityResult_dtoGainedNoField_extraRecordedFieldIsIgnored() {
    record Receipt(String id) {}
    RunResult r =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(1, java.util.Map.of("id", "r-1", "removedField", 7))
            .run((ctx, in) -> ctx.callActivity("A", "in", Receipt.class).await().id());

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("r-1");
  }

  @Test
  void eventPayload_noLongerDecodes_bouncedSerializationError() {
    RunResult r =
        Histories.start()
            .newTurn(T2)
            .eventRaised("amount", "twelve")
            .run((ctx, in) -> ctx.waitForEvent("amount", Integer.class).await());

    assertThat(as(RunResult.Bounced.class, r).reason()).isEqualTo("SERIALIZATION_ERROR");
  }

  @Test
  void input_noLongerDecodes_bouncedSerializationError() {
    RunResult r =
        Histories.start().input("not a number", Integer.class).run((ctx, in) -> "never runs");

    assertThat(as(RunResult.Bounced.class, r).reason()).isEqualTo("SERIALIZATION_ERROR");
  }

  @Test
  void childResult_noLongerDecodes_bouncedSerializationError() {
    RunResult r =
        Histories.start()
            .childScheduled(1, "child", "in")
            .newTurn(T2)
            .childCompleted(1, "not a number")
            .run((ctx, in) -> ctx.callSubOrchestration("child", "in", Integer.class).await());

    assertThat(as(RunResult.Bounced.class, r).reason()).isEqualTo("SERIALIZATION_ERROR");
  }

  @Test
  void activityFailure_recordedFailureUnreadable_historyUnreadableBeforeAnyCode() {
    // A failure that is not a failure object cannot be read into history at all: the turn bounces
    // as HISTORY_UNREADABLE (counted) before the code could catch anything.
    HistoryRow row =
        new HistoryRow(
            1, 3, EventKind.ACTIVITY_FAILED, 1L, "A", "{\"seq\":1,\"failure\":\"garbage\"}", 2, T2);

    assertThatThrownBy(() -> HistoryEvent.parse(row, Histories.MAPPER))
        .isInstanceOf(HistoryUnreadableException.class)
        .hasMessageContaining("event 3 (ACTIVITY_FAILED) of execution 1")
        .hasMessageContaining("not a failure object");
  }
}
