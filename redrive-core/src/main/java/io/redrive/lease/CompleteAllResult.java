package io.redrive.lease;

import java.util.List;

/**
 * The outcome of completing many leases at once.
 *
 * @param completed ids completed
 * @param lost ids whose token was no longer their current lease (or that no longer exist)
 */
public record CompleteAllResult(List<String> completed, List<String> lost) {}
