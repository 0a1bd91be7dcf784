package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#deleteCompletions}: up to {@code limit} records, those the completion
 * window alone kept that completed before {@code before}, then the kept stories of completed
 * messages whose retention ended before {@code now} (with their history).
 */
public record DeleteCompletionsParams(Instant before, Instant now, int limit) {
  /** Records completed before {@code before}, kept stories ended by then too. */
  public DeleteCompletionsParams(Instant before, int limit) {
    this(before, before, limit);
  }
}
