package io.redrive.store;

import java.time.Instant;

/** Input of {@link Store#leaseHolders}: the queue, and {@code now} to tell expired leases. */
public record LeaseHoldersParams(String queue, Instant now) {}
