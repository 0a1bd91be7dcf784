package io.redrive.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The poison display texts, word for word (D-15's text half). */
class PoisonTextsTest {
  @Test
  void orchestration_namesTheInstanceAndBothCounts() {
    assertThat(PoisonTexts.orchestration("order-42", 11, 10))
        .isEqualTo("poison: orchestration order-42 exceeded 11 attempts (max 10)");
  }

  @Test
  void activity_namesTheActivityAndItsId() {
    assertThat(PoisonTexts.activity("charge-card", 42, 11, 10))
        .isEqualTo("poison: activity charge-card#42 exceeded 11 attempts (max 10)");
  }

  @Test
  void historyUnreadable_carriesTheError() {
    assertThat(PoisonTexts.historyUnreadable("order-42", 4, 3, "event 7: not JSON"))
        .isEqualTo(
            "poison: orchestration order-42 history deserialization failed after 4 attempts"
                + " (max 3): event 7: not JSON");
  }

  @Test
  void crashLoop_listsTheNodes() {
    assertThat(PoisonTexts.crashLoop("order-42", List.of("node-a", "node-b"), 3, 2))
        .isEqualTo(
            "poison: orchestration order-42 crashed 2 nodes (node-a, node-b) in 3 attempts"
                + " (max crashes 2)");
  }

  @Test
  void activityCrashLoop_listsTheWorkers() {
    assertThat(
            PoisonTexts.activityCrashLoop(
                "charge-card", 42, List.of("a/wf.activities", "b/wf.activities"), 3, 2))
        .isEqualTo(
            "poison: activity charge-card#42 crashed 2 workers (a/wf.activities,"
                + " b/wf.activities) in 3 attempts (max crashes 2)");
  }

  @Test
  void withLastAttempt_endsWithItsReasonAndTheFirstLineOfItsMessage() {
    WorkflowFailure last =
        WorkflowFailure.application(
            "UNREGISTERED_HANDLER", "no handler for type b\n at somewhere", null, null, true);

    assertThat(
            PoisonTexts.withLastAttempt("poison: activity b#2 exceeded 4 attempts (max 3)", last))
        .isEqualTo(
            "poison: activity b#2 exceeded 4 attempts (max 3); last attempt:"
                + " UNREGISTERED_HANDLER: no handler for type b");
    assertThat(PoisonTexts.withLastAttempt("poison: x", null)).isEqualTo("poison: x");
    assertThat(
            PoisonTexts.withLastAttempt(
                "poison: x",
                WorkflowFailure.application(
                    "NONDETERMINISM",
                    "nondeterminism: i-1 execution 1 command #1",
                    null,
                    null,
                    false)))
        .isEqualTo("poison: x; last attempt: NONDETERMINISM: i-1 execution 1 command #1");
    assertThat(
            PoisonTexts.withLastAttempt(
                "poison: x", WorkflowFailure.application("LEASE_EXPIRED", "", null, null, true)))
        .isEqualTo("poison: x; last attempt: LEASE_EXPIRED");
  }
}
