package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Instant;
import java.util.List;

/** Input of {@link Store#releaseIfLeased}. */
public record ReleaseParams(List<LeaseToken> tokens, Instant now) {}
