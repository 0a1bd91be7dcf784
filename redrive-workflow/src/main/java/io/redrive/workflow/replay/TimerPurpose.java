package io.redrive.workflow.replay;

/** Why a timer exists (TIMER_CREATED's {@code purpose}). */
public final class TimerPurpose {
  /** {@code createTimer}. */
  public static final String USER = "USER";

  /** The timeout of a {@code waitForEvent}. */
  public static final String EVENT_TIMEOUT = "EVENT_TIMEOUT";

  /** The wait before a retry policy's next try of an activity. */
  public static final String RETRY = "RETRY";

  private TimerPurpose() {}
}
