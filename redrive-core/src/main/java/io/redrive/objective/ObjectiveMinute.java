package io.redrive.objective;

import java.time.Instant;

/**
 * What an objective saw in one minute: events within its bound and beyond it (every node's counts
 * summed).
 *
 * @param minute the minute's start
 */
public record ObjectiveMinute(Instant minute, long within, long beyond) {}
