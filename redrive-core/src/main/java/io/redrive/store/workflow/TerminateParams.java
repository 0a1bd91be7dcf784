package io.redrive.store.workflow;

import java.time.Instant;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#requestTerminate}.
 *
 * @param instanceId the instance
 * @param reason why, kept on the instance and in its TERMINATE event, or null
 * @param now the engine's clock
 */
public record TerminateParams(String instanceId, String reason, Instant now) {
  public TerminateParams {
    WorkflowNames.require("instanceId", instanceId);
    if (reason != null && reason.length() > 2000) {
      throw new IllegalArgumentException("reason: at most 2000 characters, was " + reason.length());
    }
    Objects.requireNonNull(now, "now");
  }
}
