package io.redrive.workflow;

/** Where an orchestration instance is in its life (docs/workflows.md, "Instances"). */
public enum InstanceStatus {
  /** Started; no turn has committed yet. */
  PENDING,
  /** At least one turn has committed; it has not ended. */
  RUNNING,
  /** Ended with an output. */
  COMPLETED,
  /** Ended with a failure. */
  FAILED,
  /** Ended because it was asked to. */
  TERMINATED;

  /** True for an instance that will run no more turns. */
  public boolean terminal() {
    return this == COMPLETED || this == FAILED || this == TERMINATED;
  }
}
