package io.redrive.workflow;

/**
 * Where an activity call runs (docs/workflows.md, "Local and queued activities"). Decided once, by
 * the node that issues the call, and recorded in the history; replays never decide again. A value
 * type: any thread.
 */
public enum ActivityPlacement {
  /**
   * Local when the issuing node registers the activity with a declared timeout of at most the
   * runtime's {@code localActivityMaxTimeout} and the call names no queue, priority or limit key;
   * queued otherwise.
   */
  AUTO,
  /**
   * In the turn's process when the issuing node registers the activity (no message: the options'
   * priority and limit key do not apply there); queued otherwise.
   */
  LOCAL,
  /** Always as a message in its workflow-owned queue. */
  QUEUED
}
