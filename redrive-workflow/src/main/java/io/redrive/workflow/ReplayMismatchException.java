package io.redrive.workflow;

import io.redrive.error.RedriveException;

/**
 * Thrown by {@link WorkflowReplayer} when code does not fit a recorded history: the message names
 * the execution, the command number and what history has against what the code did.
 */
public final class ReplayMismatchException extends RedriveException {
  public ReplayMismatchException(String message) {
    super("NONDETERMINISM", message);
  }
}
