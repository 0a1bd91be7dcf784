package io.redrive.workflow;

/**
 * A child orchestration's application failure (its code threw, it was terminated, its id was
 * taken); the parent's code may catch it. A child's system failure fails the parent instead.
 */
public final class SubOrchestrationFailedException extends WorkflowException {
  public SubOrchestrationFailedException(WorkflowFailure failure) {
    super("SUB_ORCHESTRATION_FAILED", failure);
  }
}
