package io.redrive.workflow.replay.violation;

import io.redrive.store.workflow.WorkflowStore;
import java.time.Instant;

/**
 * Breaks the purity rule on purpose (test-only): a replay class that reads the wall clock and holds
 * a store. {@code WorkflowDependencyRulesTest} shows the rule reports both.
 */
public final class DeciderReadingTheWallClock {
  private WorkflowStore store;

  public Instant decide() {
    return Instant.now();
  }
}
