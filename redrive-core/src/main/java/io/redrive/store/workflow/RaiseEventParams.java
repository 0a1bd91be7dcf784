package io.redrive.store.workflow;

import java.time.Instant;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#raiseEvent}: an external event for a running (or not yet started)
 * instance, buffered in its inbox until a turn takes it.
 *
 * @param instanceId the instance
 * @param name the event's name
 * @param data its JSON, or null
 * @param dedupeKey a key unique among the instance's waiting events (a second raise with it is
 *     dropped), or null
 * @param now the engine's clock
 */
public record RaiseEventParams(
    String instanceId, String name, String data, String dedupeKey, Instant now) {
  public RaiseEventParams {
    WorkflowNames.require("instanceId", instanceId);
    WorkflowNames.require("name", name);
    if (dedupeKey != null) {
      WorkflowNames.require("dedupeKey", dedupeKey);
    }
    Objects.requireNonNull(now, "now");
  }
}
