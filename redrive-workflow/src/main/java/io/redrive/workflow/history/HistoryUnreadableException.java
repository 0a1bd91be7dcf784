package io.redrive.workflow.history;

/** A stored history event the runtime cannot read (its data or kind); the turn bounces. */
public final class HistoryUnreadableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public HistoryUnreadableException(String message) {
    super(message);
  }
}
