package io.redrive.store.workflow;

import java.time.Instant;

/**
 * A turn that ended without a commit (docs/workflows.md, table {@code redrive_wf_turns}): an
 * abandon, a lease that ran out, a refund. A committed turn leaves none.
 *
 * @param id the row's sequence number
 * @param executionId the execution the turn ran
 * @param attempt the try it was, as counted at its lease
 * @param node the node that held it, or null
 * @param leasedAt when it was leased, or null
 * @param endedAt when it ended (for LEASE_EXPIRED: when its lease ran out)
 * @param outcome why it ended (LEASE_EXPIRED, UNREGISTERED, NONDETERMINISM, REFUNDED, …)
 * @param reason a short machine reason, or null
 * @param message a human message, or null
 * @param build the code build the node said it runs, or null
 */
public record TurnRow(
    long id,
    int executionId,
    int attempt,
    String node,
    Instant leasedAt,
    Instant endedAt,
    String outcome,
    String reason,
    String message,
    String build) {
  /** A row without a build. */
  public TurnRow(
      long id,
      int executionId,
      int attempt,
      String node,
      Instant leasedAt,
      Instant endedAt,
      String outcome,
      String reason,
      String message) {
    this(id, executionId, attempt, node, leasedAt, endedAt, outcome, reason, message, null);
  }
}
