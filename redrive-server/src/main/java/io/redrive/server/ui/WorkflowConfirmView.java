package io.redrive.server.ui;

import io.redrive.workflow.InstanceInfo;

/**
 * The confirmation page of an action on one workflow instance: what will happen, and the form that
 * does it.
 *
 * @param op {@code retry}, {@code terminate} or {@code delete}
 * @param instance the instance acted on
 */
public record WorkflowConfirmView(String op, InstanceInfo instance) {

  /** The action as a button's verb. */
  public String verb() {
    return verbOf(op);
  }

  static String verbOf(String op) {
    return switch (op) {
      case "retry" -> "Retry";
      case "terminate" -> "Terminate";
      case "delete" -> "Delete";
      default -> op;
    };
  }

  /** What the action does, in a sentence. */
  public String effect() {
    return switch (op) {
      case "retry" ->
          "The failure is voided in its history and the instance runs again from where it stood;"
              + " completed activities never run again. Only a system failure (poison,"
              + " nondeterminism) can be retried: a failure its code decided cannot.";
      case "terminate" ->
          "The instance (and its children) will end as TERMINATED at its next turn.";
      case "delete" ->
          "The instance and its whole tree (children, histories, inboxes and activity messages)"
              + " will be deleted for good.";
      default -> op;
    };
  }

  /** The name of the form's text field (a retry's note, a terminate's reason), or null. */
  public String textField() {
    return switch (op) {
      case "retry" -> "note";
      case "terminate" -> "reason";
      default -> null;
    };
  }

  /** True when the action cannot be undone (its button is red). */
  public boolean destructive() {
    return !op.equals("retry");
  }
}
