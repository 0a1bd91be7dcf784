package io.redrive.store;

import io.redrive.deadletter.RedriveRequest;
import java.time.Instant;
import java.util.function.Supplier;

/** Input of {@link Store#redriveDead}; {@code ids} generates the new message ids. */
public record RedriveParams(RedriveRequest request, Supplier<String> ids, Instant now) {}
