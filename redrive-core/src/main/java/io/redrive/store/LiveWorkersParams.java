package io.redrive.store;

import java.time.Instant;

/** Input of {@link Store#liveWorkers}: the queue, and the earliest lease call that counts. */
public record LiveWorkersParams(String queue, Instant since) {}
