package io.redrive.store.workflow;

import java.time.Instant;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#startInstance}: a new workflow instance and the START event that
 * its first turn will take.
 *
 * @param instanceId the id the starter chose (1–200 characters, no control characters)
 * @param name the orchestration's name
 * @param requestedVersion the version the starter asked for, or null for the runtime's default
 * @param input the orchestration's input as JSON text (the store never reads it), or null
 * @param startAt when the first turn may run, or null for at once; nothing of the instance runs
 *     before it, events raised meanwhile included
 * @param ifExists what a start does when the id is taken
 * @param now the engine's clock
 * @param traceContext the trace context the instance's turns continue, as JSON text the store never
 *     reads (docs/tracing.md, "Workflows"), or null when the start was not traced
 */
public record StartInstanceParams(
    String instanceId,
    String name,
    String requestedVersion,
    String input,
    Instant startAt,
    IfExists ifExists,
    Instant now,
    String traceContext) {

  /** What {@link WorkflowStore#startInstance} does when an instance with the id exists. */
  public enum IfExists {
    /** Change nothing and fail with {@code INSTANCE_EXISTS}. */
    FAIL,
    /** Change nothing and answer the existing instance's id with {@code created = false}. */
    RETURN_EXISTING
  }

  /** A start with no trace context. */
  public StartInstanceParams(
      String instanceId,
      String name,
      String requestedVersion,
      String input,
      Instant startAt,
      IfExists ifExists,
      Instant now) {
    this(instanceId, name, requestedVersion, input, startAt, ifExists, now, null);
  }

  public StartInstanceParams {
    Objects.requireNonNull(ifExists, "ifExists");
    Objects.requireNonNull(now, "now");
    WorkflowNames.require("instanceId", instanceId);
    WorkflowNames.require("name", name);
    if (requestedVersion != null) {
      WorkflowNames.require("requestedVersion", requestedVersion);
    }
  }
}
