package io.redrive.store.workflow;

import java.util.List;

/**
 * A node's own copy of the histories of instances it ran recently (docs/workflows.md, "History
 * cache"), offered to {@link WorkflowStore#leaseTurn} so that a lease of such an instance reads
 * only its inbox. The store still decides: it takes the copy only when it has exactly as many
 * events and bytes as the leased instance's counters say the current execution has, and reads the
 * history otherwise. Entered by the leasing thread, inside the lease's transaction: it must answer
 * from memory, quickly, and never call the store.
 */
@FunctionalInterface
public interface KnownHistory {
  /** Knows nothing: every lease reads the history. */
  KnownHistory NONE = instance -> null;

  /**
   * The rows of {@code instance}'s current execution this node holds, in event order, or null when
   * it holds none for it (another instance under the same id, another execution, older counters).
   */
  List<HistoryRow> of(InstanceRow instance);
}
