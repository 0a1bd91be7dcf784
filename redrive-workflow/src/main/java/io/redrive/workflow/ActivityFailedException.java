package io.redrive.workflow;

/**
 * An activity's application failure (it threw, timed out, gave up, or its input did not decode),
 * after its retry policy ran out; orchestration code may catch it. System failures (poison) never
 * arrive as this exception: they fail the orchestration before its code runs.
 */
public final class ActivityFailedException extends WorkflowException {
  public ActivityFailedException(WorkflowFailure failure) {
    super("ACTIVITY_FAILED", failure);
  }
}
