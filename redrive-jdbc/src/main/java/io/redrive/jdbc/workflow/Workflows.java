package io.redrive.jdbc.workflow;

import io.redrive.jdbc.SqlDialect;
import io.redrive.jdbc.owned.OwnedQueues;
import io.redrive.jdbc.owned.QueueEndings;
import io.redrive.store.workflow.AbandonTurnParams;
import io.redrive.store.workflow.ActivityLinkRow;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.DeleteTreeResult;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstancePage;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.LeaseTurnParams;
import io.redrive.store.workflow.ListInstancesParams;
import io.redrive.store.workflow.NodeRow;
import io.redrive.store.workflow.PublishNodeParams;
import io.redrive.store.workflow.RaiseEventParams;
import io.redrive.store.workflow.RenewTurnParams;
import io.redrive.store.workflow.RetryInstanceParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.store.workflow.StartInstanceResult;
import io.redrive.store.workflow.TerminateParams;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.TurnRow;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The workflow statements of the JDBC layer (docs/workflows.md), one method per {@link
 * io.redrive.store.workflow.WorkflowStore} call, each run on the caller's connection: {@code
 * JdbcStore} (its workflow half, {@code JdbcWorkflowStore}) owns the transactions and the ready
 * signals. Thread-safe.
 */
public final class Workflows {
  /**
   * The ready-signal key of workflow turns, on this node and (on PostgreSQL) in the NOTIFY channel
   * the queues share; never a queue's name.
   */
  public static final String SIGNAL = WorkflowNotifications.SIGNAL;

  /**
   * A condition on {@code redrive_messages} that holds for a message no activity link names: the
   * one-statement complete of plain queues takes only those, so an activity message's complete goes
   * the locked way, where its instance is told. One probe of the link table's unique index per row:
   * measured cheaper at batch 1 than reading the queue table's flag per statement.
   */
  public static final String NOT_AN_ACTIVITY =
      "NOT EXISTS (SELECT 1 FROM redrive_wf_activities a WHERE a.message_id = redrive_messages.id)";

  private final WorkflowInstances instances;
  private final WorkflowTurns turns;
  private final WorkflowCommits commits;
  private final WorkflowOperations operations;
  private final ActivityEndings activityEndings;
  private final WorkflowNotifications notifications;

  /**
   * @param signal tells this node's turn pollers that a turn may be due (the store's ready signal
   *     of {@link #SIGNAL})
   */
  public Workflows(SqlDialect dialect, Runnable signal) {
    this.notifications = new WorkflowNotifications(dialect, signal);
    this.instances = new WorkflowInstances(notifications);
    this.turns = new WorkflowTurns(dialect);
    this.commits = new WorkflowCommits(dialect, instances, notifications);
    this.operations = new WorkflowOperations(dialect, notifications);
    this.activityEndings = new ActivityEndings(notifications);
  }

  /**
   * Whether this thread's last transaction wrote inbox rows that may make a turn due; clears the
   * mark. The transaction's runner asks after its commit (and after a rollback, to drop it).
   */
  public static boolean takeAnnounced() {
    return WorkflowNotifications.takeAnnounced();
  }

  /** Tells of due turns inside a caller's transaction, whose commit sends it. */
  public void announceInCallerTransaction(Connection c) throws SQLException {
    notifications.announceInCallerTransaction(c);
  }

  /**
   * Whether {@link #leaseTurn} is one statement committed on its own (then run it in auto-commit);
   * otherwise it takes a transaction.
   */
  public boolean leasesTurnsAlone() {
    return turns.leasesAlone();
  }

  /** What the queue statements tell at the ends of messages in workflow-owned queues. */
  public QueueEndings activityEndings() {
    return activityEndings;
  }

  public StartInstanceResult start(Connection c, StartInstanceParams p) throws SQLException {
    return instances.start(c, p);
  }

  public Optional<InstanceRow> find(Connection c, String instanceId) throws SQLException {
    return instances.find(c, instanceId);
  }

  public InstancePage list(Connection c, ListInstancesParams p) throws SQLException {
    return instances.list(c, p);
  }

  public Map<InstanceRow.Status, Long> countByStatus(Connection c) throws SQLException {
    return instances.countByStatus(c);
  }

  public List<ExecutionRow> executions(Connection c, String instanceId) throws SQLException {
    return instances.executions(c, instanceId);
  }

  public List<ActivityLinkRow> pendingActivities(Connection c, String instanceId)
      throws SQLException {
    return WorkflowReads.pendingActivities(c, instanceId);
  }

  public List<TurnRow> timeline(Connection c, String instanceId) throws SQLException {
    return WorkflowReads.turnRows(c, instanceId, false);
  }

  public Optional<Instant> nextDueAt(Connection c, String node, Duration stickyWait)
      throws SQLException {
    return WorkflowTurns.nextDueAt(c, node, stickyWait);
  }

  public List<HistoryRow> history(Connection c, String instanceId, Integer executionId)
      throws SQLException {
    return WorkflowReads.history(c, instanceId, executionId);
  }

  public List<InboxRow> inbox(Connection c, String instanceId) throws SQLException {
    return WorkflowReads.inbox(c, instanceId, Long.MAX_VALUE, Integer.MAX_VALUE);
  }

  public boolean raise(Connection c, RaiseEventParams p) throws SQLException {
    return operations.raise(c, p);
  }

  public boolean terminate(Connection c, TerminateParams p) throws SQLException {
    return operations.terminate(c, p);
  }

  /** Returns the queues of the activity messages made ready again. */
  public List<String> retry(Connection c, RetryInstanceParams p, OwnedQueues queues)
      throws SQLException {
    return operations.retry(c, p, queues);
  }

  public DeleteTreeResult deleteTree(
      Connection c, String instanceId, boolean force, OwnedQueues queues) throws SQLException {
    return operations.deleteTree(c, instanceId, force, queues);
  }

  public Optional<TurnLease> leaseTurn(Connection c, LeaseTurnParams p) throws SQLException {
    return turns.lease(c, p);
  }

  public Instant renewTurn(Connection c, RenewTurnParams p) throws SQLException {
    return turns.renew(c, p);
  }

  public void abandonTurn(Connection c, AbandonTurnParams p) throws SQLException {
    turns.abandon(c, p);
  }

  /** Returns the queues that got activity messages. */
  public Set<String> commitTurn(Connection c, CommitTurnParams p, OwnedQueues queues)
      throws SQLException {
    return commits.commit(c, p, queues);
  }

  public int releaseSticky(Connection c, String nodeId) throws SQLException {
    return WorkflowTurns.releaseSticky(c, nodeId);
  }

  public void publishNode(Connection c, PublishNodeParams p) throws SQLException {
    WorkflowNodes.publish(c, p);
  }

  public boolean removeNode(Connection c, String nodeId) throws SQLException {
    return WorkflowNodes.remove(c, nodeId);
  }

  public List<NodeRow> liveNodes(Connection c, Instant now) throws SQLException {
    return WorkflowNodes.live(c, now);
  }
}
