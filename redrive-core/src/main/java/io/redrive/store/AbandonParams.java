package io.redrive.store;

import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;

/** Input of {@link Store#abandonIfLeased}; {@code reason} may be null. */
public record AbandonParams(
    LeaseToken token,
    Duration delay,
    boolean refund,
    String note,
    FailureReason reason,
    Instant now) {}
