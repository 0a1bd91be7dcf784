package io.redrive.store;

import io.redrive.deadletter.RedriveRequest;
import java.time.Instant;

/** Input of {@link Store#redriveDead}. */
public record RedriveParams(RedriveRequest request, Instant now) {}
