package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recorded histories replayed against new code: the same code passes, a changed one fails naming
 * the command, a change behind {@code patched} passes on the old history and takes the new branch
 * for new executions.
 */
class WorkflowReplayerTest extends RuntimeHarness {

  private static WorkflowRegistry v1(String secondActivity, boolean patchedChange) {
    return WorkflowRegistry.builder()
        .orchestration(
            "order",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              String reserved = ctx.callActivity("reserve", in, String.class).await();
              String second =
                  patchedChange && ctx.patched("gift-wrap")
                      ? ctx.callActivity("wrap", reserved, String.class).await()
                      : ctx.callActivity(secondActivity, reserved, String.class).await();
              return second;
            })
        .activity("reserve", String.class, String.class, (ctx, in) -> in + " reserved")
        .activity("charge", String.class, String.class, (ctx, in) -> in + " charged")
        .activity("refund", String.class, String.class, (ctx, in) -> in + " refunded")
        .activity("wrap", String.class, String.class, (ctx, in) -> in + " wrapped")
        .build();
  }

  private String recordedV1History() throws Exception {
    redrive(StoreKind.SQLITE);
    runtime(v1("charge", false));
    String id =
        client().start(StartRequest.of("order", "book").withInstanceId("order-1")).instanceId();
    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("book reserved charged");
    List<WorkflowEvent> rows = client().history(id, null);
    return WorkflowReplayer.toJson(rows);
  }

  @Test
  void replay_sameCode_passes() throws Exception {
    String history = recordedV1History();

    assertThatCode(() -> WorkflowReplayer.replay(v1("charge", false), history))
        .doesNotThrowAnyException();
    assertThat(WorkflowReplayer.fromJson(history)).hasSize(9);
  }

  @Test
  void replay_changedCommand_failsNamingIt() throws Exception {
    String history = recordedV1History();

    assertThatThrownBy(() -> WorkflowReplayer.replay(v1("refund", false), history))
        .isInstanceOf(ReplayMismatchException.class)
        .hasMessageStartingWith(
            "nondeterminism: order-1 execution 1 command #2: history has ACTIVITY_SCHEDULED"
                + " charge, code issued ACTIVITY_SCHEDULED refund")
        .satisfies(
            e -> {
              ReplayMismatchException m = (ReplayMismatchException) e;
              assertThat(m.code()).isEqualTo(ReplayMismatchException.NONDETERMINISM);
              assertThat(m.executionId()).isEqualTo(1);
              assertThat(m.command()).isEqualTo(2L);
              assertThat(m.eventId()).isEqualTo(6);
              assertThat(m.expected()).isEqualTo("ACTIVITY_SCHEDULED charge");
              assertThat(m.actual()).isEqualTo("ACTIVITY_SCHEDULED refund");
            });
  }

  @Test
  void replay_changeBehindPatched_passesOnTheOldHistory() throws Exception {
    String history = recordedV1History();

    assertThatCode(() -> WorkflowReplayer.replay(v1("charge", true), history))
        .doesNotThrowAnyException();
  }

  @Test
  void patched_newExecution_takesTheNewBranchAndItsHistoryReplays() throws Exception {
    redrive(StoreKind.SQLITE);
    runtime(v1("charge", true));
    String id = client().start(StartRequest.of("order", "pen")).instanceId();

    assertThat(client().awaitResult(id, WAIT, String.class)).isEqualTo("pen reserved wrapped");
    String history = WorkflowReplayer.toJson(client().history(id, null));
    assertThatCode(() -> WorkflowReplayer.replay(v1("charge", true), history))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> WorkflowReplayer.replay(v1("charge", false), history))
        .isInstanceOf(ReplayMismatchException.class)
        .hasMessageContaining("history has PATCH_APPLIED gift-wrap");
  }

  @Test
  void replay_unregisteredVersion_fails() throws Exception {
    String history = recordedV1History();
    WorkflowRegistry other =
        WorkflowRegistry.builder()
            .orchestration("order", "2.0.0", String.class, String.class, (ctx, in) -> in)
            .build();

    assertThatThrownBy(() -> WorkflowReplayer.replay(other, history))
        .isInstanceOf(ReplayMismatchException.class)
        .hasMessageContaining("order@1.0.0")
        .extracting(e -> ((ReplayMismatchException) e).code())
        .isEqualTo(ReplayMismatchException.UNREGISTERED);
  }

  @Test
  void fromJson_notAnArray_isRefusedNamingTheProblem() {
    assertThatThrownBy(() -> WorkflowReplayer.fromJson("{\"kind\":1}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("history: must be a JSON array of events");
  }
}
