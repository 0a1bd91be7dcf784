package io.redrive.workflow;

import io.redrive.store.ReadySubscription;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Starts, inspects and steers orchestration instances (docs/workflows.md). Thread-safe. Get one
 * with {@link #on(io.redrive.Redrive)} (any process sharing the store; no runtime needed) or {@link
 * WorkflowRuntime#client()}.
 */
public interface WorkflowClient extends InstanceReader {

  /**
   * A client on {@code redrive}'s store, with the default JSON settings.
   *
   * @throws IllegalArgumentException when the store has no workflow half ({@link #supports})
   */
  static WorkflowClient on(io.redrive.Redrive redrive) {
    return new StoreWorkflowClient(redrive, Json.defaultMapper());
  }

  /** True when {@code redrive}'s store keeps workflows (both of Redrive's stores do). */
  static boolean supports(io.redrive.Redrive redrive) {
    return StoreWorkflowClient.hasWorkflowHalf(redrive);
  }

  /**
   * Starts an instance: PENDING until a runtime takes its first turn. The result carries a warning
   * when no live node runs the orchestration (or the version given); the start stands.
   *
   * @throws io.redrive.error.InstanceExistsException when the id is taken and {@code ifExists} is
   *     FAIL
   * @throws io.redrive.PayloadTooLargeException when the input is larger than the engine accepts
   */
  StartResult start(StartRequest request);

  /**
   * The workflow nodes live now (docs/workflows.md, "Nodes"), by node id: what each runtime sharing
   * the store runs, as it last published it.
   */
  List<WorkflowNode> nodes();

  /**
   * As {@link #start(StartRequest)}, inside the caller's transaction on {@code connection}: the
   * instance exists once the caller commits, and never if it rolls back.
   */
  StartResult start(Connection connection, StartRequest request);

  /** The instance, if there is one. */
  Optional<InstanceInfo> get(String instanceId);

  /**
   * The instance with what it waits on and what it has outstanding, if there is one: reads its
   * inbox, and while it lives its current execution's history and its last uncommitted turn try.
   */
  Optional<InstanceDetail> inspect(String instanceId);

  /** How many instances there are in each status; statuses without one are left out. */
  Map<InstanceStatus, Long> countByStatus();

  /**
   * Calls {@code listener} (on a store thread; it must return quickly) after a turn committed, in
   * this process and, where the database can tell (PostgreSQL NOTIFY), in other processes: a hint
   * that an instance may have changed. Close the subscription to stop.
   */
  ReadySubscription subscribeTurns(Runnable listener);

  /**
   * Waits until the instance has ended (COMPLETED, FAILED or TERMINATED) or {@code timeout} passed,
   * and returns it as it is then.
   *
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   */
  InstanceInfo await(String instanceId, Duration timeout);

  /**
   * Waits for the instance's output.
   *
   * @throws WorkflowFailedException when it failed or was terminated (with its failure)
   * @throws TimeoutException when it has not ended within {@code timeout}
   */
  <O> O awaitResult(String instanceId, Duration timeout, Class<O> type) throws TimeoutException;

  /** The history of one execution, or with {@code executionId} null of all, oldest first. */
  @Override
  List<WorkflowEvent> history(String instanceId, Integer executionId);

  /**
   * The instance's attempt-level timeline, oldest first: its history events (every execution)
   * interleaved with every turn try that ended without a commit (node, outcome) and every delivery
   * of its finished activities (worker, outcome). Empty for an unknown instance.
   */
  List<TimelineEntry> timeline(String instanceId);

  /**
   * Raises an event the instance can wait for (buffered until it does).
   *
   * @param dedupeKey a key that makes a second raise with it a no-op, or null
   * @return false when the dedupe key was already waiting
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   * @throws io.redrive.error.ConflictException INSTANCE_NOT_RUNNING for an ended one
   */
  boolean raiseEvent(String instanceId, String name, Object payload, String dedupeKey);

  /**
   * Asks the instance to end as TERMINATED at its next turn (children too); returns it as it is
   * now.
   */
  InstanceInfo terminate(String instanceId, String reason);

  /**
   * Deletes a root instance with its whole tree (instances, histories, inboxes and activity
   * messages in any state) in one transaction.
   *
   * @param force also when an instance of the tree has not ended
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   * @throws io.redrive.error.ConflictException NOT_ROOT for a child (the message names the root);
   *     TREE_RUNNING when an instance has not ended and {@code force} is false; nothing changes
   */
  DeleteResult delete(String instanceId, boolean force);

  /**
   * Brings back an instance that failed by a system failure (poison, nondeterminism, an unreadable
   * history), which its code never saw: the failure is voided in history (ORCHESTRATION_RETRIED),
   * the poisoned batch or dead activity message is put back, and the instance runs again from where
   * it stood; a failure that came up from a child revives the child first. Completed activities
   * never run again.
   *
   * @throws io.redrive.error.InstanceNotFoundException for an unknown instance
   * @throws io.redrive.error.ConflictException NOT_FAILED when it has not failed; NOT_RETRYABLE
   *     when its code decided the failure (an application failure); nothing changes
   */
  InstanceInfo retry(String instanceId, String note);

  /** Instances matching the query, newest first. */
  @Override
  InstancePage list(InstanceQuery query);
}
