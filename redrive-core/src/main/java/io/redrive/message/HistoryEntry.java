package io.redrive.message;

import io.redrive.failure.FailureRecord;
import java.time.Instant;

/**
 * One entry of a message's story: a delivery (attempt number, worker, lease and settle times,
 * outcome, failure) or an operator action (retry, redrive, dead-letter move, import).
 *
 * @param attempt the delivery number, or the attempts count at the time of an action
 * @param outcome how it ended
 * @param worker the worker that held the lease, or the operator/actor, or null
 * @param leasedAt when the delivery started (null for actions)
 * @param settledAt when it ended or the action happened (null while leased)
 * @param failure the failure, when it ended in one
 * @param note free text for actions, e.g. {@code redriven from orders.dlq}
 */
public record HistoryEntry(
    int attempt,
    Outcome outcome,
    String worker,
    Instant leasedAt,
    Instant settledAt,
    FailureRecord failure,
    String note) {}
