package io.redrive.store;

import io.redrive.schedule.Schedule;
import java.time.Instant;
import java.util.Objects;

/** Input of {@link ScheduleStore#saveSchedule}: a validated schedule and the engine's clock. */
public record SaveScheduleParams(Schedule schedule, Instant now) {
  public SaveScheduleParams {
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(now, "now");
  }
}
