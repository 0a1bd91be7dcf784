package io.redrive.store;

import java.time.Instant;

/** Input of {@link Store#setPaused}: pause ({@code paused} true) or resume leasing from a queue. */
public record PauseParams(String queue, boolean paused, Instant now) {}
