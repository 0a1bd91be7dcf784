package io.redrive.server.ui;

import java.util.List;

/**
 * The workflow failures page's model: the failed instances read, grouped by cause, and the outcome
 * of a bulk retry just done.
 *
 * @param groups the groups, largest first
 * @param failed how many failed instances the visitor may see among those read
 * @param read how many failed instances were read
 * @param capped true when more failed instances exist than were read (older ones left out)
 * @param mayRetry true when the visitor may retry (ADMIN)
 * @param result what a bulk retry just did, in a sentence, or null
 */
public record WorkflowFailuresView(
    List<WorkflowFailureGroup> groups,
    int failed,
    int read,
    boolean capped,
    boolean mayRetry,
    String result) {

  public WorkflowFailuresView {
    groups = List.copyOf(groups);
  }

  /** How many instances are read at most. */
  public int scan() {
    return WorkflowFailureGroups.SCAN;
  }
}
