package io.redrive.workflow.runtime;

import io.redrive.store.workflow.ActivityResult;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InboxRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.TurnLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One turn that runs local activities between checkpoints (docs/workflows.md, "Local and queued
 * activities"): what the store holds after each checkpoint, as the next decision's lease, built in
 * memory (the store is not read again), and the instance's CHECKPOINT row, written once and deleted
 * by the turn's last commit. Not thread-safe: one turn thread owns it.
 */
final class TurnChain {
  private final String instanceId;
  private boolean rowWritten;
  private String rowData;

  TurnChain(String instanceId) {
    this.instanceId = instanceId;
  }

  /**
   * {@code p} as this turn commits it: a checkpoint that keeps the lease for {@code keepLease}
   * (null: the turn's last commit); the CHECKPOINT row written only when new or changed, and
   * deleted by a last commit that leaves no local activity to run.
   */
  CommitTurnParams prepare(CommitTurnParams p, Duration keepLease) {
    List<NewInboxRow> inserts = new ArrayList<>();
    NewInboxRow row = null;
    for (NewInboxRow r : p.inboxInserts()) {
      if (r.instanceId().equals(instanceId) && "CHECKPOINT".equals(r.kind())) {
        row = r;
      } else {
        inserts.add(r);
      }
    }
    List<String> deleteKeys = new ArrayList<>(p.inboxDeleteKeys());
    if (row != null) {
      boolean same = rowWritten && Objects.equals(rowData, row.data());
      if (!same) {
        if (rowWritten) {
          deleteKeys.add(LocalRuns.CHECKPOINT_KEY);
        }
        inserts.add(row);
      }
      rowWritten = true;
      rowData = row.data();
    } else if (rowWritten) {
      deleteKeys.add(LocalRuns.CHECKPOINT_KEY);
    }
    return new CommitTurnParams(
        p.instanceId(),
        p.token(),
        p.instance(),
        p.executions(),
        p.history(),
        p.inboxDeletes(),
        inserts,
        p.children(),
        p.activities(),
        p.now(),
        keepLease,
        deleteKeys);
  }

  /**
   * The lease of the next decision after checkpoint {@code p}: the instance as the checkpoint left
   * it, the history with its events, the local activities' results as the batch (rows that never
   * were in the inbox: negative sequence numbers), no turn rows, attempt 1.
   */
  static TurnLease next(
      TurnLease lease,
      CommitTurnParams p,
      List<LocalRun> runs,
      List<ActivityResult> results,
      Instant now) {
    InstanceRow i = lease.instance();
    InstanceUpdate u = p.instance();
    boolean sameExecution = u.executionId() == i.executionId();
    List<HistoryRow> history = new ArrayList<>(sameExecution ? lease.history() : List.of());
    history.addAll(p.history());
    int events = (sameExecution ? i.historyEvents() : 0) + p.history().size();
    long bytes = (sameExecution ? i.historyBytes() : 0) + p.historyBytes();
    InstanceRow after =
        new InstanceRow(
            i.id(),
            i.name(),
            u.version(),
            i.requestedVersion(),
            u.status(),
            u.executionId(),
            i.parentId(),
            i.rootId(),
            u.input(),
            u.output(),
            u.failure(),
            u.customStatus(),
            i.createdAt(),
            p.now(),
            null,
            null,
            1,
            i.leasedBy(),
            p.now().plus(p.keepLease()),
            events,
            bytes,
            i.parentExecution(),
            i.parentSeq(),
            i.traceContext());
    List<InboxRow> batch = new ArrayList<>();
    for (int k = 0; k < runs.size(); k++) {
      LocalRun r = runs.get(k);
      batch.add(
          new InboxRow(
              -(k + 1),
              u.executionId(),
              "ACTIVITY_RESULT",
              r.seq(),
              r.name(),
              null,
              now,
              now,
              results.get(k)));
    }
    return new TurnLease(after, lease.token(), 1, batch, history, List.of());
  }
}
