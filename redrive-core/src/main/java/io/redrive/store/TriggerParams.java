package io.redrive.store;

import java.time.Duration;
import java.time.Instant;

/**
 * Input of {@link ScheduleStore#triggerSchedule}.
 *
 * @param completionWindow the engine's completion window, for the produced message's dedupe key
 */
public record TriggerParams(String name, Instant now, Duration completionWindow) {}
