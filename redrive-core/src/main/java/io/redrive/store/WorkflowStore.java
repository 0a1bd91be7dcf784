package io.redrive.store;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The workflow half of a store (docs/workflows.md): instances, their histories, the inbox their
 * turns take events from. A store that has it implements this beside {@link Store}; the workflow
 * runtime finds it as {@code redrive.store() instanceof WorkflowStore}. Payloads are JSON text the
 * store never reads. Implementations are thread-safe; every method is one transaction.
 *
 * <p>In progress: starting and finding instances; leasing, renewing, committing and abandoning
 * turns. Queries and operator actions follow.
 */
public interface WorkflowStore {

  /**
   * Creates an instance in status PENDING with a START event in its inbox.
   *
   * @throws io.redrive.error.InstanceExistsException when the id is taken and {@code ifExists} is
   *     FAIL; nothing changes
   */
  StartInstanceResult startInstance(StartInstanceParams params);

  /**
   * As {@link #startInstance(StartInstanceParams)}, inside the caller's transaction on {@code
   * connection}: the instance exists when the caller commits and never if it rolls back. The
   * connection is left open and its transaction to the caller.
   */
  StartInstanceResult startInstance(Connection connection, StartInstanceParams params);

  /** The instance with this id, if there is one. */
  Optional<InstanceRow> findInstance(String instanceId);

  /**
   * The instance's history: one execution's events in order, or with {@code executionId} null every
   * execution's, oldest first. Empty for an unknown id.
   */
  List<HistoryRow> readHistory(String instanceId, Integer executionId);

  /** The events waiting in the instance's inbox (timers included), oldest first. */
  List<InboxRow> readInbox(String instanceId);

  /**
   * The instance's executions, oldest first; empty for an unknown id or before the first commit.
   */
  List<ExecutionRow> listExecutions(String instanceId);

  /**
   * Leases the next instance with a visible inbox row (oldest row first) whose {@code not_before}
   * has passed and that no live lease holds, counting one more try of its batch. An instance whose
   * lease ran out is leased again, its lost turn recorded as LEASE_EXPIRED. Empty when nothing is
   * due.
   */
  Optional<TurnLease> leaseTurn(LeaseTurnParams params);

  /**
   * Extends a turn lease to {@code now + leaseTimeout}; returns the new expiry.
   *
   * @throws io.redrive.error.TurnLostException when the token is not the instance's lease
   */
  Instant renewTurn(RenewTurnParams params);

  /**
   * Writes everything a turn decided in one transaction, guarded by its token: the instance row
   * (the turn counter back to 0, the lease cleared), execution rows, the history events, the
   * consumed inbox rows deleted and new ones inserted, child instances, activity messages with
   * their links; a terminal status also clears the instance's inbox and cancels its activity
   * messages not yet leased.
   *
   * @throws io.redrive.error.TurnLostException when the token is not the instance's lease; nothing
   *     is written
   * @throws IllegalArgumentException when the history does not continue the stored one without a
   *     gap, or an activity's queue is not workflow-owned; nothing is written
   */
  void commitTurn(CommitTurnParams params);

  /**
   * Ends a turn without a commit: the lease is cleared, the instance waits {@code delay}, the try
   * stays counted (or is refunded), and a turn row records the outcome.
   *
   * @throws io.redrive.error.TurnLostException when the token is not the instance's lease
   */
  void abandonTurn(AbandonTurnParams params);
}
