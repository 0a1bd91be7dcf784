package io.redrive.workflow.testkit;

/** What {@link ActivityStub#failing(String)} throws: the activity failed with this message. */
public final class ActivityStubException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ActivityStubException(String message) {
    super(message);
  }
}
