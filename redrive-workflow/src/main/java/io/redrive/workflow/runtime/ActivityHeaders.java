package io.redrive.workflow.runtime;

/** The headers an activity message carries back to the command that scheduled it. */
public final class ActivityHeaders {
  /** The instance that scheduled it. */
  public static final String INSTANCE = "wf-instance";

  /** Its execution. */
  public static final String EXECUTION = "wf-execution";

  /** The command number of its ACTIVITY_SCHEDULED (the activity id). */
  public static final String ACTIVITY = "wf-activity";

  /** Which retry of the retry policy it is (0 for the first scheduling). */
  public static final String RETRY = "wf-retry";

  /** The call's own timeout in milliseconds ({@code ActivityOptions.timeout}), when it set one. */
  public static final String TIMEOUT_MS = "wf-timeout-ms";

  private ActivityHeaders() {}
}
