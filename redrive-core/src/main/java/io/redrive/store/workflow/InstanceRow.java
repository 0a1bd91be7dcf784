package io.redrive.store.workflow;

import java.time.Instant;

/**
 * A workflow instance as the store holds it (docs/workflows.md, table {@code
 * redrive_wf_instances}); JSON columns are text the store never reads.
 *
 * @param id the instance's id
 * @param name the orchestration's name
 * @param version the pinned version, or null until the first turn pins one
 * @param requestedVersion the version the starter asked for, or null
 * @param status where the instance is in its life
 * @param executionId the current execution (1 for the first)
 * @param parentId the parent instance, or null for a root
 * @param rootId the root of the instance's tree (its own id for a root)
 * @param input the input of the current execution, or null
 * @param output the output once completed, or null
 * @param failure the failure once failed, or null
 * @param customStatus the status the orchestration set, or null
 * @param createdAt when it was started
 * @param updatedAt when the row last changed
 * @param completedAt when it reached a terminal status, or null
 * @param notBefore no turn runs before this (a start delay or a backoff), or null
 * @param turnAttempt counted tries of the pending batch (0 after a commit)
 * @param leasedBy the node holding the turn lease, or null
 * @param leaseExpiresAt when that lease runs out, or null
 * @param historyEvents events in the current execution's history
 * @param historyBytes bytes of the current execution's history
 * @param parentExecution the parent's execution that started it, or null for a root
 * @param parentSeq the command number of the parent's CHILD_SCHEDULED, or null for a root
 * @param traceContext the trace context its turns continue (JSON text), or null
 */
public record InstanceRow(
    String id,
    String name,
    String version,
    String requestedVersion,
    Status status,
    int executionId,
    String parentId,
    String rootId,
    String input,
    String output,
    String failure,
    String customStatus,
    Instant createdAt,
    Instant updatedAt,
    Instant completedAt,
    Instant notBefore,
    int turnAttempt,
    String leasedBy,
    Instant leaseExpiresAt,
    int historyEvents,
    long historyBytes,
    Integer parentExecution,
    Long parentSeq,
    String traceContext) {

  /** Where an instance is in its life. */
  public enum Status {
    /** Started; no turn has committed yet. */
    PENDING,
    RUNNING,
    COMPLETED,
    FAILED,
    TERMINATED;

    /** True for an instance that will run no more turns. */
    public boolean terminal() {
      return this == COMPLETED || this == FAILED || this == TERMINATED;
    }
  }
}
