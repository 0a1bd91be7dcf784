package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#deleteThroughput}: the throughput counters and depth snapshots of minutes
 * that began before {@code before}.
 */
public record DeleteThroughputParams(Instant before) {}
