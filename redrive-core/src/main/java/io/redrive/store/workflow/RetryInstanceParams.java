package io.redrive.store.workflow;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#retryInstance}: what the runtime decided voids a failed instance's
 * system failure (docs/workflows.md); the store applies it under the instance's lock.
 *
 * @param instanceId the failed instance
 * @param retried the ORCHESTRATION_RETRIED event, appended to the current execution's history where
 *     it ends
 * @param inbox inbox rows to put back (the poisoned batch)
 * @param deadActivities DEAD activity messages to retry in place
 * @param by who asked (kept in the turn row)
 * @param note why, or null
 * @param now the engine's clock
 */
public record RetryInstanceParams(
    String instanceId,
    HistoryRow retried,
    List<CommitTurnParams.NewInboxRow> inbox,
    List<String> deadActivities,
    String by,
    String note,
    Instant now) {
  public RetryInstanceParams {
    WorkflowNames.require("instanceId", instanceId);
    Objects.requireNonNull(retried, "retried");
    inbox = List.copyOf(inbox);
    deadActivities = List.copyOf(deadActivities);
    WorkflowNames.require("by", by);
    Objects.requireNonNull(now, "now");
  }
}
