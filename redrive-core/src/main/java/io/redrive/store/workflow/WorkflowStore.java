package io.redrive.store.workflow;

import io.redrive.store.ReadySubscription;
import io.redrive.store.Store;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The workflow half of a store (docs/workflows.md): instances, their histories, the inbox their
 * turns take events from. A store that has it implements this beside {@link Store}; the workflow
 * module reaches it through {@link io.redrive.internal.workflow.WorkflowStores}, the only door
 * {@code Redrive} opens to its store. Payloads are JSON text the store never reads. Implementations
 * are thread-safe; every method is one transaction.
 *
 * <p>Instances are started, read and listed; turns are leased, renewed, committed and abandoned;
 * events are raised, terminations requested, failed instances retried and whole trees deleted.
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

  /**
   * Calls {@code listener} (on a store thread; it must return quickly) whenever a turn may have
   * become due: an instance started, a turn committed, an event raised, a termination requested, an
   * instance retried or an activity's result arrived — on this node or, on PostgreSQL, on any node
   * sharing the database. Timers and backoffs are not announced: a poller sleeps until {@link
   * #nextDueAt} for them.
   */
  ReadySubscription subscribeTurns(Runnable listener);

  /** The instance with this id, if there is one. */
  Optional<InstanceRow> findInstance(String instanceId);

  /**
   * The instance's history: one execution's events in order, or with {@code executionId} null every
   * execution's, oldest first. Empty for an unknown id.
   */
  List<HistoryRow> readHistory(String instanceId, Integer executionId);

  /**
   * Instances matching the filters, newest first, a page at a time.
   *
   * @throws IllegalArgumentException for a cursor this store did not give
   */
  InstancePage listInstances(ListInstancesParams params);

  /**
   * The instance's activities whose messages have not ended (link status PENDING), oldest first;
   * empty for an unknown instance.
   */
  List<ActivityLinkRow> pendingActivities(String instanceId);

  /** How many instances there are in each status (statuses without any are left out). */
  java.util.Map<InstanceRow.Status, Long> countInstances();

  /** The instance's turns that ended without a commit (its timeline of tries), oldest first. */
  List<TurnRow> readTimeline(String instanceId);

  /**
   * When the next turn will be due after {@code now}, for a poller's sleep: the earliest time at
   * which some inbox row is visible, its instance's {@code not_before} has passed and no live lease
   * holds it. Empty when nothing waits; a time at or before {@code now} when a turn is due now.
   */
  default Optional<Instant> nextDueAt(Instant now) {
    return nextDueAt(now, null, Duration.ZERO);
  }

  /**
   * As {@link #nextDueAt(Instant)}, for a lease by {@code node} with {@code stickyWait} ({@link
   * LeaseTurnParams#stickyWait}): a row of an instance that sticks to another node counts as
   * visible {@code stickyWait} later.
   */
  Optional<Instant> nextDueAt(Instant now, String node, Duration stickyWait);

  /**
   * Buffers an event in the instance's inbox; it waits there until a turn takes it. Serialized with
   * a commit that ends the instance.
   *
   * @return false when the dedupe key is among the instance's waiting events (nothing changes)
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   * @throws io.redrive.error.ConflictException INSTANCE_NOT_RUNNING for an ended one
   */
  boolean raiseEvent(RaiseEventParams params);

  /**
   * Asks the instance to end: a TERMINATE row that bypasses a backoff ({@code not_before} cleared);
   * the next turn ends it, registered code or not.
   *
   * @return false when a termination is already pending (nothing changes)
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   * @throws io.redrive.error.ConflictException INSTANCE_NOT_RUNNING for an ended one
   */
  boolean requestTerminate(TerminateParams params);

  /**
   * Brings a failed instance back: appends the retry event, status RUNNING with the turn counter at
   * 0 and the failure cleared, puts the given inbox rows back and retries the given DEAD activity
   * messages in place (attempts reset, a RETRIED entry, their links pending again); a RETRIED turn
   * row records who asked.
   *
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   * @throws io.redrive.error.ConflictException NOT_FAILED when it has not failed; nothing changes
   * @throws IllegalArgumentException when the event does not continue the history; nothing changes
   */
  void retryInstance(RetryInstanceParams params);

  /**
   * Deletes a root instance and its whole tree: instances, executions, histories, inboxes, turn
   * rows, activity links and their messages in any state, in one transaction.
   *
   * @param force also when an instance of the tree has not ended
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   * @throws io.redrive.error.ConflictException NOT_ROOT for a child (the message names the root);
   *     TREE_RUNNING when an instance has not ended and {@code force} is false; nothing changes
   */
  DeleteTreeResult deleteInstanceTree(String instanceId, boolean force);

  /** The events waiting in the instance's inbox (timers included), oldest first. */
  List<InboxRow> readInbox(String instanceId);

  /**
   * The instance's executions, oldest first; empty for an unknown id or before the first commit.
   */
  List<ExecutionRow> listExecutions(String instanceId);

  /**
   * Leases the next instance with a visible inbox row (oldest row first) whose {@code not_before}
   * has passed and that no live lease holds, counting one more try of its batch. An instance that
   * sticks to another node ({@link CommitTurnParams#stickyNode}) is passed over until that row has
   * been visible for {@link LeaseTurnParams#stickyWait}. An instance whose lease ran out is leased
   * again, its lost turn recorded as LEASE_EXPIRED. Empty when nothing is due.
   */
  Optional<TurnLease> leaseTurn(LeaseTurnParams params);

  /**
   * Extends a turn lease to {@code now + leaseTimeout}; returns the new expiry.
   *
   * @throws io.redrive.error.TurnLostException when the token is not the instance's live lease
   *     (another took over, or it ran out at or before {@code now})
   */
  Instant renewTurn(RenewTurnParams params);

  /**
   * Writes everything a turn decided in one transaction, guarded by its token: the instance row
   * (the turn counter back to 0, the lease cleared), execution rows, the history events, the
   * consumed inbox rows deleted and new ones inserted, child instances, activity messages with
   * their links; a terminal status also clears the instance's inbox and cancels its activity
   * messages not yet leased. A checkpoint ({@link CommitTurnParams#checkpoint()}) writes the same
   * but keeps the lease for {@code keepLease} under the same token, counts the try as one (a lease
   * after a crash reports 2) and announces nothing for this instance; the turn commits again.
   *
   * @throws io.redrive.error.TurnLostException when the token is not the instance's live lease
   *     (another node took over, or it ran out at or before {@code now}, taken over or not; the
   *     next lease counts that try); nothing is written
   * @throws IllegalArgumentException when the history does not continue the stored one without a
   *     gap, or an activity's queue is not workflow-owned; nothing is written
   */
  void commitTurn(CommitTurnParams params);

  /**
   * Ends a turn without a commit: the lease is cleared, the instance waits {@code delay} and sticks
   * to no node, the try stays counted (or is refunded), and a turn row records the outcome.
   *
   * @throws io.redrive.error.TurnLostException when the token is not the instance's lease
   */
  void abandonTurn(AbandonTurnParams params);

  /**
   * Writes (or rewrites) the node's row: live until {@code expiresAt}, seen at {@code now}. Rows of
   * other nodes that expired at or before {@code now} are deleted in the same transaction, so a
   * node that died without {@link #removeNode} leaves the table within a publish of anyone.
   */
  void publishNode(PublishNodeParams params);

  /** Deletes the node's row (a runtime that stops); false when there was none. */
  boolean removeNode(String nodeId);

  /**
   * Lets go of every instance that sticks to {@code nodeId} (a runtime that stops gracefully, so
   * that any node leases their next turns at once); returns how many there were.
   */
  int releaseSticky(String nodeId);

  /** The nodes whose rows are live at {@code now} ({@code expiresAt} after it), by node id. */
  List<NodeRow> listNodes(Instant now);
}
