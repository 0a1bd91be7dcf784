package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redrive.workflow.ReplayCheckReport.InstanceResult;
import io.redrive.workflow.ReplayCheckReport.Outcome;
import io.redrive.workflow.ReplayCheckReport.PinnedVersion;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The report's JSON is a contract (the CLI prints it with {@code --json}, other tools read it):
 * these tests pin its field names and order, and the text rendering the CLI prints.
 */
class ReplayCheckReportTest {
  private static final ReplayCheckReport REPORT =
      new ReplayCheckReport(
          List.of(
              new InstanceResult(
                  "order-7",
                  "order",
                  "1.0.0",
                  InstanceStatus.RUNNING,
                  1,
                  Outcome.NONDETERMINISM,
                  6,
                  2L,
                  "ACTIVITY_SCHEDULED review",
                  "ACTIVITY_SCHEDULED audit",
                  "nondeterminism: order-7 execution 1 command #2: history has ACTIVITY_SCHEDULED"
                      + " review, code issued ACTIVITY_SCHEDULED audit"),
              new InstanceResult(
                  "order-8",
                  "order",
                  "1.0.0",
                  InstanceStatus.RUNNING,
                  1,
                  Outcome.OK,
                  null,
                  null,
                  null,
                  null,
                  null),
              new InstanceResult(
                  "order-9",
                  "order",
                  "0.9.0",
                  InstanceStatus.FAILED,
                  2,
                  Outcome.UNREGISTERED,
                  null,
                  null,
                  null,
                  null,
                  "order@0.9.0 is not registered in the new build: its turns would back off and"
                      + " poison")),
          List.of(
              new PinnedVersion("order", "0.9.0", 1, false),
              new PinnedVersion("order", "1.0.0", 2, true)),
          false);

  @Test
  void toJson_hasTheDocumentedShape() {
    assertThat(REPORT.toJson())
        .isEqualTo(
            "{\"ok\":false,\"checked\":3,\"breaking\":2,\"truncated\":false,\"instances\":["
                + "{\"id\":\"order-7\",\"name\":\"order\",\"version\":\"1.0.0\","
                + "\"status\":\"RUNNING\",\"execution\":1,\"outcome\":\"NONDETERMINISM\","
                + "\"eventId\":6,\"command\":2,\"expected\":\"ACTIVITY_SCHEDULED review\","
                + "\"actual\":\"ACTIVITY_SCHEDULED audit\",\"message\":\"nondeterminism: order-7"
                + " execution 1 command #2: history has ACTIVITY_SCHEDULED review, code issued"
                + " ACTIVITY_SCHEDULED audit\"},"
                + "{\"id\":\"order-8\",\"name\":\"order\",\"version\":\"1.0.0\","
                + "\"status\":\"RUNNING\",\"execution\":1,\"outcome\":\"OK\",\"eventId\":null,"
                + "\"command\":null,\"expected\":null,\"actual\":null,\"message\":null},"
                + "{\"id\":\"order-9\",\"name\":\"order\",\"version\":\"0.9.0\","
                + "\"status\":\"FAILED\",\"execution\":2,\"outcome\":\"UNREGISTERED\","
                + "\"eventId\":null,\"command\":null,\"expected\":null,\"actual\":null,"
                + "\"message\":\"order@0.9.0 is not registered in the new build:"
                + " its turns would back off and poison\"}],"
                + "\"versions\":[{\"name\":\"order\",\"version\":\"0.9.0\",\"instances\":1,"
                + "\"registered\":false},{\"name\":\"order\",\"version\":\"1.0.0\","
                + "\"instances\":2,\"registered\":true}]}");
  }

  @Test
  void fromJson_readsBackWhatToJsonWrote() {
    assertThat(ReplayCheckReport.fromJson(REPORT.toJson())).isEqualTo(REPORT);
  }

  @Test
  void fromJson_notAReport_isRefusedNamingTheProblem() {
    assertThatThrownBy(() -> ReplayCheckReport.fromJson("{\"ok\":true}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("replay check report: needs the arrays \"instances\" and \"versions\"");
  }

  @Test
  void toText_listsWhatBreaksThenThePinnedVersions() {
    assertThat(REPORT.toText())
        .isEqualTo(
            "replay check: 3 instances checked, 2 would break\n"
                + "NONDETERMINISM     order-7 order@1.0.0 execution 1 at event #6 (command #2):"
                + " history has ACTIVITY_SCHEDULED review, code issued ACTIVITY_SCHEDULED audit\n"
                + "UNREGISTERED       order-9 order@0.9.0 execution 2: order@0.9.0 is not"
                + " registered in the new build: its turns would back off and poison\n"
                + "pinned versions:\n"
                + "  order@0.9.0      1 instance  NOT REGISTERED: 1 instance pinned to"
                + " order@0.9.0 would back off and poison\n"
                + "  order@1.0.0      2 instances\n");
    assertThat(REPORT.breaking())
        .extracting(InstanceResult::id)
        .containsExactly("order-7", "order-9");
    assertThat(REPORT.ok()).isFalse();
  }

  @Test
  void options_outOfRange_areRefusedNamingTheOption() {
    assertThatThrownBy(() -> ReplayCheckOptions.running().withStatuses(InstanceStatus.COMPLETED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("statuses: PENDING, RUNNING or FAILED");
    assertThatThrownBy(() -> ReplayCheckOptions.running().withLimit(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("limit: 1 or more, was 0");
    assertThatThrownBy(() -> ReplayCheckOptions.running().withStatuses())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("statuses: at least one, was []");
  }
}
