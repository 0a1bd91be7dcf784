package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;

/** Input of {@link Store#renewIfLeased}; a null {@code leaseTimeout} means the queue's. */
public record RenewParams(LeaseToken token, Duration leaseTimeout, Instant now) {}
