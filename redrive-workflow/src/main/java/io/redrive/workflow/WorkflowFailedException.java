package io.redrive.workflow;

/** Thrown to a client awaiting an instance's result when the instance failed or was terminated. */
public final class WorkflowFailedException extends WorkflowException {
  public WorkflowFailedException(WorkflowFailure failure) {
    super("WORKFLOW_FAILED", failure);
  }
}
