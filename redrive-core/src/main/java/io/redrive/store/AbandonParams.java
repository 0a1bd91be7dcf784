package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;

/** Input of {@link Store#abandonIfLeased}. */
public record AbandonParams(
    LeaseToken token, Duration delay, boolean refund, String note, Instant now) {}
