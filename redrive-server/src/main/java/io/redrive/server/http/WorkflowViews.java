package io.redrive.server.http;

import io.redrive.store.HistoryRow;
import io.redrive.store.InboxRow;
import io.redrive.store.InstanceRow;
import io.redrive.store.TurnRow;
import io.redrive.store.WorkflowStore;
import io.redrive.workflow.TimelineEntry;
import io.redrive.workflow.WorkflowFailure;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds the {@link WorkflowResponses} records from the workflow store's rows: what an instance is,
 * what it waits on and what it has outstanding.
 */
final class WorkflowViews {
  private final WorkflowStore store;

  WorkflowViews(WorkflowStore store) {
    this.store = store;
  }

  /** The full instance, as of now; {@code created} is given by start only. */
  WorkflowResponses.Instance instance(InstanceRow r, Instant now, Boolean created) {
    List<InboxRow> inbox = store.readInbox(r.id());
    boolean terminateRequested = inbox.stream().anyMatch(i -> "TERMINATE".equals(i.kind()));
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
        waiting(r, now),
        pending(r, inbox),
        new WorkflowResponses.HistorySize(r.historyEvents(), r.historyBytes()),
        terminateRequested && !r.status().terminal(),
        created);
  }

  static WorkflowResponses.InstanceSummary summary(InstanceRow r) {
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

  static WorkflowResponses.Event event(HistoryRow e) {
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

  /**
   * A turn that holds a live lease runs now; otherwise counted tries mean the last ones failed and
   * the instance backs off until {@code notBefore}. An ended or idle instance waits on nothing.
   */
  private WorkflowResponses.Waiting waiting(InstanceRow r, Instant now) {
    if (r.status().terminal()) {
      return null;
    }
    if (r.leasedBy() != null && r.leaseExpiresAt() != null && r.leaseExpiresAt().isAfter(now)) {
      return new WorkflowResponses.Waiting(
          "IN_TURN", null, r.turnAttempt(), r.leaseExpiresAt(), r.leasedBy());
    }
    if (r.turnAttempt() == 0) {
      return null;
    }
    List<TurnRow> turns = store.readTimeline(r.id());
    TurnRow last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
    return new WorkflowResponses.Waiting(
        last == null ? "RETRYING" : last.outcome(),
        last == null ? null : last.message(),
        r.turnAttempt(),
        r.notBefore() != null && r.notBefore().isAfter(now) ? r.notBefore() : null,
        last == null ? null : last.node());
  }

  /** Counts the current execution's commands without an answer, and buffered events. */
  private WorkflowResponses.Pending pending(InstanceRow r, List<InboxRow> inbox) {
    int events = 0;
    Instant nextTimer = null;
    for (InboxRow i : inbox) {
      if ("EVENT_RAISED".equals(i.kind())) {
        events++;
      } else if ("TIMER_FIRED".equals(i.kind())
          && (nextTimer == null || i.visibleAt().isBefore(nextTimer))) {
        nextTimer = i.visibleAt();
      }
    }
    if (r.status().terminal()) {
      return new WorkflowResponses.Pending(0, 0, events, 0, null);
    }
    Set<Long> open = new HashSet<>();
    int activities = 0;
    int timers = 0;
    int children = 0;
    for (HistoryRow e : store.readHistory(r.id(), r.executionId())) {
      if (e.seq() == null) {
        continue;
      }
      switch (e.kind()) {
        case "ACTIVITY_SCHEDULED", "TIMER_CREATED", "CHILD_SCHEDULED" -> open.add(key(e, e.kind()));
        case "ACTIVITY_COMPLETED", "ACTIVITY_FAILED" -> open.remove(key(e, "ACTIVITY_SCHEDULED"));
        case "TIMER_FIRED" -> open.remove(key(e, "TIMER_CREATED"));
        case "CHILD_COMPLETED", "CHILD_FAILED" -> open.remove(key(e, "CHILD_SCHEDULED"));
        default -> {}
      }
    }
    for (Long k : open) {
      switch ((int) (k & 3)) {
        case 0 -> activities++;
        case 1 -> timers++;
        default -> children++;
      }
    }
    return new WorkflowResponses.Pending(activities, timers, events, children, nextTimer);
  }

  /** The command number with its kind in the two low bits, so one set holds all three kinds. */
  private static long key(HistoryRow e, String commandKind) {
    int kind =
        switch (commandKind) {
          case "ACTIVITY_SCHEDULED" -> 0;
          case "TIMER_CREATED" -> 1;
          default -> 2;
        };
    return (e.seq() << 2) | kind;
  }

  static WorkflowResponses.WorkflowFailure failure(String json) {
    return json == null ? null : failure(WorkflowFailure.fromJson(json));
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
