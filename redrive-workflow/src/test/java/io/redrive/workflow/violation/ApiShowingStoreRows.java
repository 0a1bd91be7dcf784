package io.redrive.workflow.violation;

import io.redrive.store.workflow.HistoryRow;
import java.util.List;

/** Breaks an API rule on purpose (WorkflowDependencyRulesTest shows the rule catches it). */
public final class ApiShowingStoreRows {
  public List<HistoryRow> history() {
    return List.of();
  }
}
