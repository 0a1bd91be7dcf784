package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#deleteActivity}: the activity counters and depth snapshots of minutes that
 * began before {@code before}.
 */
public record DeleteActivityParams(Instant before) {}
