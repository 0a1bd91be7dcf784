package io.redrive.store;

import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseToken;
import java.time.Duration;
import java.time.Instant;

/** Input of {@link Store#failIfLeased}. */
public record FailParams(
    LeaseToken token,
    FailureReason reason,
    String message,
    Boolean retryable,
    Duration retryAfter,
    long progress,
    String stackTrace,
    Instant now) {}
