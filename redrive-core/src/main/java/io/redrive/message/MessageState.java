package io.redrive.message;

/**
 * The stored state of a message. Completed messages leave the store at once, so COMPLETED appears
 * only in results and history; a READY message whose visibility lies ahead is shown as SCHEDULED.
 */
public enum MessageState {
  READY,
  SCHEDULED,
  LEASED,
  DEAD,
  COMPLETED
}
