package io.redrive.store;

import java.time.Instant;

/** Input of {@link Store#stats}; {@code now} tells scheduled messages from ready ones. */
public record StatsParams(String queue, Instant now) {}
