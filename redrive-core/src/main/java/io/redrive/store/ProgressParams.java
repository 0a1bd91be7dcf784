package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Instant;

/** Input of {@link Store#recordProgressIfLeased}. */
public record ProgressParams(LeaseToken token, long progress, Instant now) {}
