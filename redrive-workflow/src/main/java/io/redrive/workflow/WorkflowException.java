package io.redrive.workflow;

import io.redrive.error.RedriveException;

/**
 * A recorded workflow failure thrown where code can react to it: in orchestration code (an activity
 * or child that failed) or in a client (an instance that ended unsuccessfully). Carries the failure
 * as data.
 */
public abstract class WorkflowException extends RedriveException {
  private final transient WorkflowFailure failure;

  protected WorkflowException(String code, WorkflowFailure failure) {
    super(code, failure.display());
    this.failure = failure;
  }

  /** The recorded failure. */
  public WorkflowFailure failure() {
    return failure;
  }
}
