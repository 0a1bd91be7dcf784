package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#expireDue}: up to {@code limit} messages whose deadline is at or before
 * {@code now}.
 */
public record ExpireParams(Instant now, int limit) {}
