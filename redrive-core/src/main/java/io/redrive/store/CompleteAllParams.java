package io.redrive.store;

import io.redrive.lease.LeaseToken;
import java.time.Instant;
import java.util.List;

/** Input of {@link Store#completeAllIfLeased}. */
public record CompleteAllParams(List<LeaseToken> tokens, Instant now) {}
