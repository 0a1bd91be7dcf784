package io.redrive.deadletter;

import java.util.List;

/**
 * The outcome of a (bulk) manual retry.
 *
 * @param retried ids put back to ready with attempts reset
 * @param skipped ids that exist but are not dead (nothing changed for them)
 * @param notFound ids that do not exist
 */
public record RetryResult(List<String> retried, List<String> skipped, List<String> notFound) {}
