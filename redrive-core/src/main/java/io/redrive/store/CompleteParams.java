package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Instant;

/** Input of {@link Store#completeIfLeased}. */
public record CompleteParams(LeaseToken token, long progress, Instant now) {}
