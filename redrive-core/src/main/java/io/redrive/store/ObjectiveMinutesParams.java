package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link ObjectiveStore#objectiveMinutes}: the minutes of objective {@code name} whose
 * start is at or after {@code from} and at or before {@code to}.
 */
public record ObjectiveMinutesParams(String name, Instant from, Instant to) {}
