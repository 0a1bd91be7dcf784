package io.redrive.server.ui;

/**
 * The confirmation page of an operator action: what will happen to how many messages, counted by a
 * dry run, and the form that does it.
 *
 * @param op {@code retry}, {@code redrive} or {@code drop}
 * @param queue the queue acted on
 * @param fingerprint the group's key, or null for one message
 * @param id the message's id, or null for a group
 * @param count how many messages the dry run matched
 * @param skipped how many matched but cannot be acted on (redrive: no source queue)
 * @param what the cause in words (the group's pattern) or the message's type
 * @param back where Cancel goes
 */
public record ConfirmView(
    String op,
    String queue,
    String fingerprint,
    String id,
    long count,
    long skipped,
    String what,
    String back) {

  /** The action as a verb for the button: {@code Retry}, {@code Redrive}, {@code Drop}. */
  public String verb() {
    return switch (op) {
      case "retry" -> "Retry";
      case "redrive" -> "Redrive";
      case "drop" -> "Drop";
      default -> op;
    };
  }

  /** What the action does, in a sentence's words. */
  public String effect() {
    return switch (op) {
      case "retry" -> "put back to ready in place, attempts reset";
      case "redrive" -> "moved back to the queue each came from, attempts reset";
      case "drop" -> "deleted for good, with their history";
      default -> op;
    };
  }
}
