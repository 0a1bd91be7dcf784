package io.redrive.workflow;

import io.redrive.store.workflow.DeleteTreeResult;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.ListInstancesParams;
import io.redrive.store.workflow.StartInstanceParams;
import io.redrive.workflow.replay.Payloads;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The one place where the workflow API's records and the store's rows meet, so that no store type
 * appears in a public signature of this package (WorkflowDependencyRulesTest).
 */
final class StoreRows {
  private StoreRows() {}

  static InstanceStatus status(InstanceRow.Status s) {
    return InstanceStatus.valueOf(s.name());
  }

  static InstanceRow.Status status(InstanceStatus s) {
    return InstanceRow.Status.valueOf(s.name());
  }

  static StartInstanceParams.IfExists ifExists(StartRequest.IfExists i) {
    return StartInstanceParams.IfExists.valueOf(i.name());
  }

  static InstanceInfo info(InstanceRow r, Payloads payloads) {
    WorkflowFailure failure =
        r.failure() == null ? null : WorkflowFailure.fromJson(payloads.parse(r.failure()));
    return new InstanceInfo(
        r.id(),
        r.name(),
        r.version(),
        r.requestedVersion(),
        status(r.status()),
        r.executionId(),
        r.input(),
        r.output(),
        failure,
        r.customStatus(),
        r.parentId(),
        r.rootId(),
        r.createdAt(),
        r.updatedAt(),
        r.completedAt(),
        r.turnAttempt(),
        r.historyEvents(),
        r.historyBytes());
  }

  static ListInstancesParams params(InstanceQuery q) {
    Set<InstanceRow.Status> statuses = EnumSet.noneOf(InstanceRow.Status.class);
    q.statuses().forEach(s -> statuses.add(status(s)));
    return new ListInstancesParams(
        statuses,
        q.name(),
        q.rootId(),
        q.limit(),
        q.cursor(),
        q.version(),
        q.parentId(),
        q.rootsOnly(),
        q.createdSince(),
        q.createdBefore());
  }

  static WorkflowEvent event(HistoryRow r) {
    return new WorkflowEvent(
        r.eventId(), r.executionId(), r.kind(), r.seq(), r.name(), r.data(), r.turn(), r.at());
  }

  static List<WorkflowEvent> events(List<HistoryRow> rows) {
    return rows.stream().map(StoreRows::event).toList();
  }

  static HistoryRow row(WorkflowEvent e) {
    return new HistoryRow(
        e.executionId(), e.eventId(), e.kind(), e.seq(), e.name(), e.data(), e.turn(), e.at());
  }

  static DeleteResult deleted(DeleteTreeResult r) {
    return new DeleteResult(r.instances(), r.messages());
  }
}
