package io.redrive.store;

import java.time.Duration;
import java.time.Instant;

/** Input of {@link Store#leaseReady}; a null {@code leaseTimeout} means the queue's. */
public record LeaseParams(
    String queue, String worker, int max, Duration leaseTimeout, Instant now) {}
