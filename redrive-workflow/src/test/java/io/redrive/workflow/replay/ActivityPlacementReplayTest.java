package io.redrive.workflow.replay;

import static io.redrive.workflow.replay.Histories.T2;
import static io.redrive.workflow.replay.Histories.as;
import static io.redrive.workflow.replay.Histories.stored;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.store.workflow.HistoryRow;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.ActivityPlacement;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ActivityScheduled;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.EventKind;
import io.redrive.workflow.history.HistoryEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Placement is decided when a call is first issued and recorded in its ACTIVITY_SCHEDULED; replays
 * read it from history and never ask again.
 */
class ActivityPlacementReplayTest {
  private static String callA(io.redrive.workflow.OrchestrationContext ctx, Object in) {
    return ctx.callActivity("A", "in", String.class).await();
  }

  @Test
  void newCall_placedLocally_recordsLocalTrue() {
    List<String> asked = new ArrayList<>();
    RunResult r =
        Histories.start()
            .placement(
                (name, options) -> {
                  asked.add(name + ":" + options.placement());
                  return true;
                })
            .run(ActivityPlacementReplayTest::callA);

    Event e = as(RunResult.Suspended.class, r).events().get(0);
    assertThat(((ActivityScheduled) e).local()).isTrue();
    assertThat(stored(e).data().get("local").asBoolean()).isTrue();
    assertThat(asked).containsExactly("A:" + ActivityPlacement.AUTO);
  }

  @Test
  void newCall_queued_writesNoLocalField() {
    RunResult r = Histories.start().run(ActivityPlacementReplayTest::callA);

    Event e = as(RunResult.Suspended.class, r).events().get(0);
    assertThat(((ActivityScheduled) e).local()).isFalse();
    assertThat(stored(e).data().has("local")).isFalse();
  }

  @Test
  void replay_readsTheRecordedPlacement_neverAsksAgain() {
    List<String> asked = new ArrayList<>();
    RunResult queued =
        Histories.start()
            .activityScheduled(1, "A", "in")
            .newTurn(T2)
            .placement(
                (name, options) -> {
                  asked.add(name);
                  return true;
                })
            .run(ActivityPlacementReplayTest::callA);
    RunResult local =
        Histories.start()
            .localActivityScheduled(1, "A", "in")
            .newTurn(T2)
            .run(ActivityPlacementReplayTest::callA);

    assertThat(as(RunResult.Suspended.class, queued).events()).isEmpty();
    assertThat(as(RunResult.Suspended.class, local).events()).isEmpty();
    assertThat(asked).as("a recorded command is never placed again").isEmpty();
  }

  @Test
  void codec_localFlag_roundTrips_andQueuedBytesUnchanged() {
    ActivityScheduled local =
        new ActivityScheduled(3, "A", Histories.MAPPER.valueToTree("x"), null, 1, 500L, true);
    ActivityScheduled queued =
        new ActivityScheduled(3, "A", Histories.MAPPER.valueToTree("x"), null, 1, 500L);

    EventCodec.Stored l = EventCodec.encode(local);
    EventCodec.Stored q = EventCodec.encode(queued);
    assertThat(q.data().toString())
        .isEqualTo(
            "{\"seq\":3,\"name\":\"A\",\"input\":\"x\",\"retryNumber\":1,\"timeoutMs\":500}");
    assertThat(l.data().toString()).isEqualTo(q.data().toString().replace("}", ",\"local\":true}"));
    HistoryRow row =
        new HistoryRow(
            1, 5, EventKind.ACTIVITY_SCHEDULED, 3L, "A", l.data().toString(), 2, Instant.EPOCH);
    assertThat(HistoryEvent.parse(row, Histories.MAPPER).event()).isEqualTo(local);
  }

  @Test
  void options_placementFactoriesAndBuilder() {
    assertThat(ActivityOptions.defaults().placement()).isEqualTo(ActivityPlacement.AUTO);
    assertThat(ActivityOptions.local().placement()).isEqualTo(ActivityPlacement.LOCAL);
    assertThat(ActivityOptions.queued().placement()).isEqualTo(ActivityPlacement.QUEUED);
    assertThat(ActivityOptions.builder().placement(ActivityPlacement.LOCAL).build())
        .isEqualTo(ActivityOptions.local());
    assertThat(ActivityOptions.local().withQueue("q").placement())
        .isEqualTo(ActivityPlacement.LOCAL);
  }
}
