package io.redrive.server.http;

import io.redrive.workflow.InstanceDetail;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.TimelineEntry;
import io.redrive.workflow.WorkflowEvent;
import io.redrive.workflow.WorkflowFailure;

/**
 * Builds the {@link WorkflowResponses} records from what the {@link
 * io.redrive.workflow.WorkflowClient} answers: what an instance is, what it waits on and what it
 * has outstanding.
 */
final class WorkflowViews {
  private WorkflowViews() {}

  /** The full instance; {@code created} is given by start only. */
  static WorkflowResponses.Instance instance(InstanceDetail d, Boolean created) {
    return instance(d, created, null);
  }

  /** A started instance, with the start's warning (null: none). */
  static WorkflowResponses.Instance instance(InstanceDetail d, Boolean created, String warning) {
    InstanceInfo r = d.instance();
    return new WorkflowResponses.Instance(
        r.id(),
        r.name(),
        r.version(),
        r.status(),
        r.executionId(),
        raw(r.input()),
        raw(r.output()),
        failure(r.failure()),
        raw(r.customStatus()),
        r.parentId(),
        r.rootId(),
        r.createdAt(),
        r.updatedAt(),
        r.completedAt(),
        waiting(d.waiting()),
        pending(d.pending()),
        new WorkflowResponses.HistorySize(r.historyEvents(), r.historyBytes()),
        d.terminateRequested(),
        created,
        warning);
  }

  static WorkflowResponses.InstanceSummary summary(InstanceInfo r) {
    return new WorkflowResponses.InstanceSummary(
        r.id(),
        r.name(),
        r.version(),
        r.requestedVersion(),
        r.status(),
        r.executionId(),
        failure(r.failure()),
        raw(r.customStatus()),
        r.parentId(),
        r.rootId(),
        r.createdAt(),
        r.updatedAt(),
        r.completedAt(),
        r.turnAttempt());
  }

  static WorkflowResponses.Event event(WorkflowEvent e) {
    return new WorkflowResponses.Event(
        e.eventId(), e.executionId(), e.kind(), e.turn(), e.at(), e.seq(), e.name(), raw(e.data()));
  }

  static WorkflowResponses.TimelineLine entry(TimelineEntry e) {
    return new WorkflowResponses.TimelineLine(
        e.at(),
        e.kind(),
        e.executionId(),
        e.eventId(),
        e.event(),
        e.name(),
        e.seq(),
        e.attempt(),
        e.node(),
        e.build(),
        e.outcome(),
        e.reason(),
        e.message());
  }

  private static WorkflowResponses.Waiting waiting(InstanceDetail.Waiting w) {
    return w == null
        ? null
        : new WorkflowResponses.Waiting(w.reason(), w.message(), w.attempt(), w.until(), w.node());
  }

  private static WorkflowResponses.Pending pending(InstanceDetail.Pending p) {
    return new WorkflowResponses.Pending(
        p.activities(), p.timers(), p.events(), p.children(), p.nextTimer());
  }

  static WorkflowResponses.WorkflowFailure failure(WorkflowFailure f) {
    if (f == null) {
      return null;
    }
    return new WorkflowResponses.WorkflowFailure(
        f.reason(),
        f.category(),
        f.message(),
        f.type(),
        f.stackTrace(),
        f.retryable(),
        f.retryAfterMs(),
        f.attempt(),
        f.maxAttempts(),
        f.target(),
        f.instanceId(),
        f.executionId(),
        f.activityName(),
        f.activityId(),
        f.poisonedMessage(),
        f.via(),
        failure(f.lastAttempt()),
        failure(f.cause()),
        f.display());
  }

  private static RawJson raw(String json) {
    return json == null ? null : new RawJson(json);
  }
}
