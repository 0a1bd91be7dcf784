package io.redrive.store;

import java.time.Instant;

/** Input of {@link ScheduleStore#pauseSchedule}: pause ({@code paused}) or resume the schedule. */
public record PauseScheduleParams(String name, boolean paused, Instant now) {}
