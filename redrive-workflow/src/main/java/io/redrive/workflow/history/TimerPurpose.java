package io.redrive.workflow.history;

/** Why a timer exists (TIMER_CREATED's {@code purpose}). */
public enum TimerPurpose {
  /** {@code createTimer}. */
  USER,
  /** The timeout of a {@code waitForEvent}. */
  EVENT_TIMEOUT,
  /** The wait before a retry policy's next try of an activity or child. */
  RETRY;

  /** The purpose stored as {@code text}; histories that name none meant a user's timer. */
  static TimerPurpose parse(String text) {
    return text == null ? USER : valueOf(text);
  }
}
