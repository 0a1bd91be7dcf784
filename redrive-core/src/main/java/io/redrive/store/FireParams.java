package io.redrive.store;

import java.time.Duration;
import java.time.Instant;

/**
 * Input of {@link ScheduleStore#fireDueSchedules}.
 *
 * @param now the engine's clock: schedules due at or before it fire
 * @param limit the most schedules fired by this call
 * @param completionWindow the engine's completion window, for the produced messages' dedupe keys
 */
public record FireParams(Instant now, int limit, Duration completionWindow) {
  public FireParams {
    if (limit < 1) {
      throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
    }
  }
}
