package io.redrive.workflow.runtime;

import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.TurnLease;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ChildCompleted;
import io.redrive.workflow.history.Event.ChildFailed;
import io.redrive.workflow.history.Event.ChildScheduled;
import io.redrive.workflow.history.Event.OrchestrationTerminated;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxMessage.Terminate;
import io.redrive.workflow.replay.Payloads;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The turn that ends an instance an operator (or its terminated parent) asked to end: no user code
 * runs, so it works for code that is not registered and for histories that cannot be read. Running
 * children are told to end too. Thread-safe.
 */
final class Termination {
  private final WorkflowRegistry registry;
  private final Payloads payloads;
  private final TurnOpening opening;
  private final TurnEnding ending;

  Termination(
      WorkflowRegistry registry, Payloads payloads, TurnOpening opening, TurnEnding ending) {
    this.registry = registry;
    this.payloads = payloads;
    this.opening = opening;
    this.ending = ending;
  }

  /**
   * The terminating turn's commit.
   *
   * @param stored the live history, or null when it cannot be read
   */
  Decision.Commit terminate(
      TurnLease lease, TurnBatch batch, List<HistoryEvent> stored, Terminate request, Instant now) {
    InstanceRow i = lease.instance();
    String reason = request.reason() != null ? request.reason() : "terminated";
    TurnExecution execution =
        stored == null ? null : TurnExecution.of(i, stored, batch, registry, payloads);
    if (execution == null) {
      execution = TurnExecution.ofInstance(i, payloads, now);
    }
    if (execution.version == null) {
      execution.version = execution.requestedVersion;
    }
    List<HistoryEvent> history = stored == null ? List.of() : stored;
    TurnDraft draft =
        stored == null ? opening.append(lease, now) : opening.open(lease, execution, history, now);
    draft.add(new OrchestrationTerminated(reason));
    for (String child : runningChildren(history)) {
      draft.send(
          child,
          null,
          new Terminate("parent " + i.id() + " terminated: " + reason),
          now,
          "terminate");
    }
    WorkflowFailure failure =
        WorkflowFailure.of(
            WorkflowFailure.TERMINATED,
            "application",
            reason,
            i.id(),
            execution.id,
            "terminated: " + reason);
    ending.notifyParent(i, execution, Status.TERMINATED, null, failure, draft, now);
    if (execution.isNew || stored != null) {
      if (execution.startedAt == null) {
        execution.startedAt = now;
      }
      draft.executions.add(
          ending.executionRow(execution, ExecutionRow.Status.TERMINATED, null, now));
    }
    InstanceUpdate update =
        new InstanceUpdate(
            Status.TERMINATED,
            execution.id,
            execution.version,
            payloads.text(execution.input),
            null,
            payloads.text(failure.toJsonTree()),
            i.customStatus());
    return ending.commit(lease, update, draft, "TERMINATED", List.of(), List.of());
  }

  /** Children scheduled and not ended yet, by command number (a retry's replaces the first). */
  private static Iterable<String> runningChildren(List<HistoryEvent> history) {
    Map<Long, String> running = new HashMap<>();
    for (HistoryEvent h : history) {
      Event e = h.event();
      if (e instanceof ChildScheduled c) {
        running.put(c.seq(), c.instanceId());
      } else if (e instanceof ChildCompleted c) {
        running.remove(c.seq());
      } else if (e instanceof ChildFailed f) {
        running.remove(f.seq());
      }
    }
    return running.values();
  }
}
