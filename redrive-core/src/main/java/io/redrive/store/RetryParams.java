package io.redrive.store;

import java.time.Instant;
import java.util.List;

/** Input of {@link Store#retryDead}. */
public record RetryParams(List<String> ids, String actor, Instant now) {}
