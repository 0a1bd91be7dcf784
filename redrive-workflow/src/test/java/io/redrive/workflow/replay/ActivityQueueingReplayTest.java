package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.T1;
import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.T3;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.stored;
import static io.redrive.workflow.replay.Histories.threw;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.Orchestration;
import io.redrive.workflow.RetryPolicy;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * An activity call's priority and limit key (issue 32, item 6): recorded in its ACTIVITY_SCHEDULED
 * only when set (so older histories keep their bytes), and kept by every retry of the call.
 */
class ActivityQueueingReplayTest {
  private static final ActivityOptions URGENT =
      ActivityOptions.defaults()
          .withPriority(8)
          .withLimitKey("tenant-1")
          .withRetry(RetryPolicy.fixed(3, Duration.ofSeconds(1)));

  private static Orchestration<Object, String> calling(ActivityOptions options) {
    return (ctx, in) ->
        ctx.callActivity("A", "in", new TypeReference<String>() {}, options).await();
  }

  @Test
  void newCall_priorityAndLimitKey_recordedInTheCommand() {
    RunResult r = Histories.start().run(calling(URGENT));

    ActivityScheduled e = (ActivityScheduled) as(RunResult.Suspended.class, r).events().get(0);
    assertThat(e.priority()).isEqualTo(8);
    assertThat(e.limitKey()).isEqualTo("tenant-1");
    assertThat(stored(e).data().get("priority").asInt()).isEqualTo(8);
    assertThat(stored(e).data().get("limitKey").asText()).isEqualTo("tenant-1");
  }

  @Test
  void newCall_neitherSet_writesNeitherField() {
    RunResult r = Histories.start().run(calling(ActivityOptions.defaults()));

    EventCodec.Stored e = stored(as(RunResult.Suspended.class, r).events().get(0));
    assertThat(e.data().has("priority")).isFalse();
    assertThat(e.data().has("limitKey")).isFalse();
  }

  @Test
  void codec_priorityAndLimitKey_roundTrip_andOldBytesDecodeWithout() {
    ActivityScheduled set =
        new ActivityScheduled(
            3, "A", Histories.MAPPER.valueToTree("x"), null, 1, 500L, false, 0, "tenant-1");
    EventCodec.Stored s = EventCodec.encode(set);
    assertThat(s.data().toString())
        .isEqualTo(
            "{\"seq\":3,\"name\":\"A\",\"input\":\"x\",\"retryNumber\":1,\"timeoutMs\":500,"
                + "\"priority\":0,\"limitKey\":\"tenant-1\"}");
    assertThat(decode(s.data().toString())).isEqualTo(set);

    ActivityScheduled old =
        decode("{\"seq\":3,\"name\":\"A\",\"input\":\"x\",\"retryNumber\":1,\"timeoutMs\":500}");
    assertThat(old.priority()).isNull();
    assertThat(old.limitKey()).isNull();
    assertThat(EventCodec.encode(old).data().toString())
        .as("an old command writes back the same bytes")
        .isEqualTo(
            "{\"seq\":3,\"name\":\"A\",\"input\":\"x\",\"retryNumber\":1,\"timeoutMs\":500}");
  }

  @Test
  void retry_keepsTheRecordedPriorityAndLimitKey_whateverTheCodeNowSays() {
    Histories h = Histories.start(T1);
    RunResult first = h.run(calling(URGENT));
    h.commit(first).newTurn(T2).activityFailed(1, threw("try 0"), 0);
    RunResult second = h.run(calling(URGENT));
    h.commit(second).newTurn(T3).retryTimerFired(1, 1);
    // A new build changed the call's options: the call already issued keeps its own.
    RunResult third = h.run(calling(URGENT.withPriority(1).withLimitKey("tenant-2")));

    ActivityScheduled retried =
        (ActivityScheduled) as(RunResult.Suspended.class, third).events().get(0);
    assertThat(retried.retryNumber()).isEqualTo(1);
    assertThat(retried.priority()).isEqualTo(8);
    assertThat(retried.limitKey()).isEqualTo("tenant-1");
  }

  @Test
  void replay_oldHistoryWithoutTheFields_replaysUnderOptionsThatSetThem() {
    RunResult r =
        Histories.start(T1)
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .activityCompleted(1, "done")
            .run(calling(URGENT));

    assertThat(as(RunResult.Completed.class, r).output().asText()).isEqualTo("done");
  }

  private static ActivityScheduled decode(String data) {
    HistoryRow row =
        new HistoryRow(1, 5, EventKind.ACTIVITY_SCHEDULED, 3L, "A", data, 2, Instant.EPOCH);
    return (ActivityScheduled) HistoryEvent.parse(row, Histories.MAPPER).event();
  }
}
