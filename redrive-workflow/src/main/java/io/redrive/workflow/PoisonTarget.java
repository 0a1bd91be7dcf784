package io.redrive.workflow;

/** What a poison failure poisoned (docs/workflows.md). */
public enum PoisonTarget {
  /** A turn's batch of an orchestration ran out of tries. */
  ORCHESTRATION,
  /** An activity message ran out of deliveries. */
  ACTIVITY,
  /** The orchestration's history could not be read, try after try. */
  HISTORY_UNREADABLE
}
