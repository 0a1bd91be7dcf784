package io.redrive.deadletter;

import java.util.List;
import java.util.Map;

/**
 * The outcome of a (bulk) manual retry.
 *
 * @param retried ids put back to ready with attempts reset
 * @param skipped ids that exist but are not dead (nothing changed for them)
 * @param notFound ids that do not exist
 * @param queues the queue of each retried id (for metrics), when the store says
 */
public record RetryResult(
    List<String> retried, List<String> skipped, List<String> notFound, Map<String, String> queues) {

  /** A result that does not name the queues. */
  public RetryResult(List<String> retried, List<String> skipped, List<String> notFound) {
    this(retried, skipped, notFound, Map.of());
  }
}
