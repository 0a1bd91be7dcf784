package io.redrive.store.workflow;

import java.time.Instant;
import java.util.Objects;

/**
 * One execution of a workflow instance (docs/workflows.md, table {@code redrive_wf_executions}):
 * one run between a start and a continue-as-new. A commit writes the row as given (insert or
 * replace of its changing fields).
 *
 * @param executionId the execution, from 1
 * @param name the orchestration's name
 * @param version the version it runs, or null while unresolved
 * @param status RUNNING, COMPLETED, FAILED, TERMINATED or CONTINUED
 * @param input its input JSON, or null
 * @param output its output JSON, or null
 * @param startedAt when its first turn committed
 * @param endedAt when it ended, or null
 * @param firstSeq the first command sequence number it used
 */
public record ExecutionRow(
    int executionId,
    String name,
    String version,
    Status status,
    String input,
    String output,
    Instant startedAt,
    Instant endedAt,
    long firstSeq) {

  /** Where an execution is in its life. */
  public enum Status {
    RUNNING,
    COMPLETED,
    FAILED,
    TERMINATED,
    /** Ended by a continue-as-new; the next execution carries on. */
    CONTINUED
  }

  public ExecutionRow {
    if (executionId < 1) {
      throw new IllegalArgumentException("executionId: must be at least 1, was " + executionId);
    }
    WorkflowNames.require("name", name);
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(startedAt, "startedAt");
  }
}
