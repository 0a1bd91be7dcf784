package io.redrive.lease;

import java.util.List;

/**
 * The outcome of failing many leases at once.
 *
 * @param failed one result per lease failed, in request order (READY/SCHEDULED when it will be
 *     retried, DEAD when it died)
 * @param lost ids whose token was no longer their current lease (or that no longer exist); nothing
 *     changed for them
 */
public record FailAllResult(List<SettleResult> failed, List<String> lost) {}
