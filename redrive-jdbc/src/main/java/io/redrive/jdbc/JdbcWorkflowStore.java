package io.redrive.jdbc;

import io.redrive.jdbc.owned.OwnedQueues;
import io.redrive.jdbc.workflow.Workflows;
import io.redrive.store.workflow.AbandonTurnParams;
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
import io.redrive.store.workflow.WorkflowStore;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link WorkflowStore} half of {@link JdbcStore}: each workflow call run in its transaction by
 * {@link Workflows}, the workflow statements, which reach the messages of workflow-owned queues
 * through {@link OwnedQueues}. Package-private, so that {@code JdbcStore} alone is the API (as
 * {@code AbstractStringBuilder} stands behind {@code StringBuilder}); {@code JdbcStore} supplies
 * the wake-ups. Thread-safe; entered through {@code JdbcStore} by the workflow runtime's threads.
 */
abstract class JdbcWorkflowStore extends JdbcScheduleStore implements WorkflowStore {
  private final Transactions tx;
  private final CountedWrites counted;
  private final Workflows workflows;
  private final StoreParts parts;

  JdbcWorkflowStore(StoreParts parts) {
    super(parts);
    this.tx = parts.tx();
    this.counted = parts.counted();
    this.workflows = parts.workflows();
    this.parts = parts;
  }

  @Override
  abstract void readyCommitted(String queue);

  /**
   * What the workflow statements may do to the messages of workflow-owned queues in one
   * transaction, whose {@code tally} counts what they enqueue.
   */
  private OwnedQueues ownedQueues(Tally tally) {
    return new OwnedQueueMessages(
        parts.producing(), parts.operating(), parts.messages(), parts.history(), tally);
  }

  @Override
  public StartInstanceResult startInstance(StartInstanceParams p) {
    return tx.write("start workflow instance " + p.instanceId(), c -> workflows.start(c, p));
  }

  @Override
  public StartInstanceResult startInstance(Connection connection, StartInstanceParams p) {
    return tx.onCallerConnection(
        "start workflow instance " + p.instanceId() + " on caller's transaction",
        connection,
        c -> workflows.start(c, p));
  }

  @Override
  public Optional<InstanceRow> findInstance(String instanceId) {
    return tx.read("find workflow instance " + instanceId, c -> workflows.find(c, instanceId));
  }

  @Override
  public InstancePage listInstances(ListInstancesParams p) {
    return tx.read("list workflow instances", c -> workflows.list(c, p));
  }

  @Override
  public List<io.redrive.store.workflow.ActivityLinkRow> pendingActivities(String instanceId) {
    return tx.read(
        "read pending activities of workflow instance " + instanceId,
        c -> workflows.pendingActivities(c, instanceId));
  }

  @Override
  public java.util.Map<InstanceRow.Status, Long> countInstances() {
    return tx.read("count workflow instances", workflows::countByStatus);
  }

  @Override
  public List<TurnRow> readTimeline(String instanceId) {
    return tx.read(
        "read timeline of workflow instance " + instanceId, c -> workflows.timeline(c, instanceId));
  }

  @Override
  public Optional<Instant> nextDueAt(Instant now, String node, Duration stickyWait) {
    return tx.read(
        "find the next due workflow turn", c -> workflows.nextDueAt(c, node, stickyWait));
  }

  @Override
  public boolean raiseEvent(RaiseEventParams p) {
    return tx.write(
        "raise event " + p.name() + " for " + p.instanceId(), c -> workflows.raise(c, p));
  }

  @Override
  public boolean requestTerminate(TerminateParams p) {
    return tx.write("request termination of " + p.instanceId(), c -> workflows.terminate(c, p));
  }

  @Override
  public void retryInstance(RetryInstanceParams p) {
    List<String> queues =
        tx.write(
            "retry workflow instance " + p.instanceId(),
            c -> workflows.retry(c, p, ownedQueues(Tally.of())));
    for (String queue : queues) {
      readyCommitted(queue);
    }
  }

  @Override
  public DeleteTreeResult deleteInstanceTree(String instanceId, boolean force) {
    return tx.write(
        "delete workflow tree of " + instanceId,
        c -> workflows.deleteTree(c, instanceId, force, ownedQueues(Tally.of())));
  }

  @Override
  public List<HistoryRow> readHistory(String instanceId, Integer executionId) {
    return tx.read(
        "read history of workflow instance " + instanceId,
        c -> workflows.history(c, instanceId, executionId));
  }

  @Override
  public List<InboxRow> readInbox(String instanceId) {
    return tx.read(
        "read inbox of workflow instance " + instanceId, c -> workflows.inbox(c, instanceId));
  }

  @Override
  public List<ExecutionRow> listExecutions(String instanceId) {
    return tx.read(
        "list executions of workflow instance " + instanceId,
        c -> workflows.executions(c, instanceId));
  }

  @Override
  public Optional<TurnLease> leaseTurn(LeaseTurnParams p) {
    if (workflows.leasesTurnsAlone()) {
      return tx.writeAlone("lease a workflow turn", c -> workflows.leaseTurn(c, p));
    }
    return tx.write("lease a workflow turn", c -> workflows.leaseTurn(c, p));
  }

  @Override
  public Instant renewTurn(RenewTurnParams p) {
    return tx.write("renew the turn of " + p.instanceId(), c -> workflows.renewTurn(c, p));
  }

  @Override
  public void commitTurn(CommitTurnParams p) {
    Set<String> activityQueues =
        counted.write(
            "commit the turn of " + p.instanceId(),
            p.now(),
            (c, tally) -> workflows.commitTurn(c, p, ownedQueues(tally)));
    for (String queue : activityQueues) {
      readyCommitted(queue);
    }
  }

  @Override
  public void abandonTurn(AbandonTurnParams p) {
    tx.write(
        "abandon the turn of " + p.instanceId(),
        c -> {
          workflows.abandonTurn(c, p);
          return null;
        });
  }

  @Override
  public void publishNode(PublishNodeParams p) {
    tx.write(
        "publish workflow node " + p.nodeId(),
        c -> {
          workflows.publishNode(c, p);
          return null;
        });
  }

  @Override
  public boolean removeNode(String nodeId) {
    return tx.write("remove workflow node " + nodeId, c -> workflows.removeNode(c, nodeId));
  }

  @Override
  public int releaseSticky(String nodeId) {
    return tx.write(
        "release the instances sticking to workflow node " + nodeId,
        c -> workflows.releaseSticky(c, nodeId));
  }

  @Override
  public List<NodeRow> listNodes(Instant now) {
    return tx.read("list workflow nodes", c -> workflows.liveNodes(c, now));
  }
}
