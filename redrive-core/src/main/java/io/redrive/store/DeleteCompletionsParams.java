package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#deleteCompletions}: up to {@code limit} records of completions before
 * {@code before}.
 */
public record DeleteCompletionsParams(Instant before, int limit) {}
