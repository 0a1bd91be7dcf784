package io.redrive.workflow;

import java.util.List;

/**
 * Thrown by {@link OrchestrationContext#allOf} once every task finished and at least one failed;
 * carries each task's failure in argument order (null for those that succeeded).
 */
public final class AllOfFailedException extends WorkflowException {
  private final transient List<WorkflowException> failures;

  public AllOfFailedException(WorkflowFailure first, List<WorkflowException> failures) {
    super("ALL_OF_FAILED", first);
    this.failures = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(failures));
  }

  /** The tasks' failures in argument order, null where a task succeeded. */
  public List<WorkflowException> failures() {
    return failures;
  }
}
