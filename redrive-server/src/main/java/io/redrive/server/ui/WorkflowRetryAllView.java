package io.redrive.server.ui;

/**
 * The confirmation page of a bulk retry of one failure group: how many instances a retry would
 * bring back, counted by a dry run just now, and the form that does it.
 *
 * @param group the group as read just now
 * @param count how many of its instances would be retried (system failures the visitor may see)
 * @param refused how many more are in the group but cannot be retried (their code decided)
 * @param capped true when not every failed instance was read (older ones are left out)
 */
public record WorkflowRetryAllView(
    WorkflowFailureGroup group, int count, int refused, boolean capped) {

  /** How many failed instances are read at most. */
  public int scan() {
    return WorkflowFailureGroups.SCAN;
  }
}
