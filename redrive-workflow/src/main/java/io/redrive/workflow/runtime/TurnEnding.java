package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.store.workflow.CommitTurnParams;
import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.TurnLease;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.Event.ContinuedAsNew;
import io.redrive.workflow.history.Event.OrchestrationCompleted;
import io.redrive.workflow.history.Event.OrchestrationFailed;
import io.redrive.workflow.history.InboxMessage.Checkpoint;
import io.redrive.workflow.history.InboxMessage.ChildResult;
import io.redrive.workflow.history.InboxMessage.Continue;
import io.redrive.workflow.replay.Payloads;
import io.redrive.workflow.replay.RunResult;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.event.Level;

/**
 * How a turn that ran (or stopped at a system failure) becomes its commit: the terminal event, the
 * history limit, the effects of its commands, the CONTINUE row, the parent's CHILD_RESULT, the
 * execution and instance rows. Thread-safe: one instance serves every turn.
 */
final class TurnEnding {
  private final RuntimeSettings settings;
  private final Payloads payloads;
  private final TurnEffects effects;
  private final Clock clock;

  TurnEnding(RuntimeSettings settings, Payloads payloads, TurnEffects effects, Clock clock) {
    this.settings = settings;
    this.payloads = payloads;
    this.effects = effects;
    this.clock = clock;
  }

  /**
   * The commit of a turn that ran ({@code result}) or stopped at a system failure ({@code
   * systemFailure}).
   */
  Decision.Commit finish(
      TurnLease lease,
      TurnExecution execution,
      int storedEvents,
      TurnDraft draft,
      RunResult result,
      WorkflowFailure systemFailure,
      List<Long> lostTimers,
      List<Observation> observations,
      Instant now) {
    InstanceRow i = lease.instance();
    long storedBytes = execution.isNew ? 0 : i.historyBytes();
    int beforeCommands = draft.events.size();
    String customStatus =
        result != null && result.customStatus() != null
            ? payloads.text(result.customStatus())
            : i.customStatus();
    Status status = Status.RUNNING;
    String output = null;
    WorkflowFailure failure = systemFailure;
    if (failure != null) {
      draft.add(new OrchestrationFailed(failure));
      status = Status.FAILED;
    } else {
      for (Event e : result.events()) {
        draft.add(e);
      }
      if (result instanceof RunResult.Completed c) {
        draft.add(new OrchestrationCompleted(c.output()));
        status = Status.COMPLETED;
        output = payloads.text(c.output());
      } else if (result instanceof RunResult.Failed f) {
        failure = f.failure();
        draft.add(new OrchestrationFailed(failure));
        status = Status.FAILED;
      } else if (result instanceof RunResult.ContinuedAsNew c) {
        draft.add(new ContinuedAsNew(c.input(), c.version()));
      }
      if (storedEvents + draft.events.size() > settings.maxHistoryEvents()
          || storedBytes + draft.bytes() > settings.maxHistoryBytes()) {
        // The limit replaces the turn's commands: nothing they scheduled is written.
        failure = historyLimit(i.id(), execution, storedEvents, storedBytes, draft);
        draft.truncate(beforeCommands);
        draft.add(new OrchestrationFailed(failure));
        status = Status.FAILED;
        output = null;
      } else {
        effects.apply(i.id(), execution.id, draft);
      }
    }
    // As before the typed history: a continue-as-new that hit the history limit still leaves its
    // CONTINUE row (dropped by the next lease, the instance having failed).
    boolean continued = result instanceof RunResult.ContinuedAsNew;
    if (continued) {
      RunResult.ContinuedAsNew c = (RunResult.ContinuedAsNew) result;
      draft.send(
          i.id(),
          null,
          new Continue(execution.name, c.input(), c.version(), c.carriedEvents(), c.nextSeq()),
          now,
          "continue:" + execution.id);
    }
    if (status.terminal()) {
      notifyParent(i, execution, status, output, failure, draft, now);
    }
    ExecutionRow.Status executionStatus =
        continued ? ExecutionRow.Status.CONTINUED : ExecutionRow.Status.valueOf(status.name());
    if (execution.isNew || status.terminal() || continued) {
      draft.executions.add(
          executionRow(
              execution, executionStatus, output, status.terminal() || continued ? now : null));
    }
    List<Observation> notes = new ArrayList<>(observations);
    notes.add(new Observation.HistoryEvents(storedEvents + draft.events.size()));
    if (failure != null && failure.isSystem()) {
      notes.add(new Observation.Log(Level.ERROR, "{} (instance {})", failure.display(), i.id()));
    }
    InstanceUpdate update =
        new InstanceUpdate(
            status,
            execution.id,
            execution.version,
            payloads.text(execution.input),
            output,
            failure == null ? null : payloads.text(failure.toJsonTree()),
            customStatus);
    List<LocalRun> locals =
        status == Status.RUNNING && !continued ? locals(i.id(), execution, draft, now) : List.of();
    Decision.Commit c = commit(lease, update, draft, "COMMITTED", lostTimers, notes);
    return new Decision.Commit(c.params(), c.outcome(), c.lostTimers(), c.observations(), locals);
  }

  /**
   * The local activities left to run after this turn; when there are some, the commit also writes
   * the instance's CHECKPOINT row, so the instance is due again should the turn die before their
   * results are committed.
   */
  private List<LocalRun> locals(
      String instanceId, TurnExecution execution, TurnDraft draft, Instant now) {
    if (draft.localCrashes == null) {
      return List.of();
    }
    List<io.redrive.workflow.history.HistoryEvent> events = new ArrayList<>();
    if (!execution.isNew && draft.storedEvents != null) {
      events.addAll(draft.storedEvents);
    }
    events.addAll(draft.events);
    List<LocalRun> locals = LocalRuns.pending(events, draft.localCrashes);
    if (!locals.isEmpty()) {
      draft.send(
          instanceId,
          null,
          new Checkpoint(LocalRuns.carried(locals)),
          now,
          LocalRuns.CHECKPOINT_KEY);
    }
    return locals;
  }

  /** The commit of {@code draft} with the instance as {@code update} says. */
  Decision.Commit commit(
      TurnLease lease,
      InstanceUpdate update,
      TurnDraft draft,
      String outcome,
      List<Long> lostTimers,
      List<Observation> observations) {
    return new Decision.Commit(
        new CommitTurnParams(
            lease.instance().id(),
            lease.token(),
            update,
            draft.executions,
            draft.rows(),
            seqs(lease),
            draft.inbox,
            draft.children,
            draft.activities,
            clock.instant()),
        outcome,
        lostTimers,
        observations);
  }

  ExecutionRow executionRow(
      TurnExecution execution, ExecutionRow.Status status, String output, Instant endedAt) {
    return new ExecutionRow(
        execution.id,
        execution.name,
        execution.version,
        status,
        payloads.text(execution.input),
        output,
        execution.startedAt,
        endedAt,
        execution.firstSeq);
  }

  /** The parent's CHILD_RESULT when this instance is a child that ended. */
  void notifyParent(
      InstanceRow i,
      TurnExecution execution,
      Status status,
      String output,
      WorkflowFailure failure,
      TurnDraft draft,
      Instant now) {
    if (i.parentId() == null || i.parentSeq() == null) {
      return;
    }
    boolean completed = status == Status.COMPLETED;
    JsonNode result = completed ? payloads.parse(output) : null;
    draft.send(
        i.parentId(),
        i.parentExecution(),
        new ChildResult(
            i.parentSeq(),
            i.parentExecution(),
            execution.name,
            status.name(),
            result,
            completed ? null : failure),
        now,
        "child:" + i.parentSeq());
  }

  private WorkflowFailure historyLimit(
      String instanceId, TurnExecution execution, int events, long bytes, TurnDraft draft) {
    String message =
        "history limit: execution "
            + execution.id
            + " of "
            + instanceId
            + " would hold "
            + (events + draft.events.size())
            + " events / "
            + (bytes + draft.bytes())
            + " bytes (max "
            + settings.maxHistoryEvents()
            + " events, "
            + settings.maxHistoryBytes()
            + " bytes); continue as new before the limit";
    return WorkflowFailure.of(
        WorkflowFailure.HISTORY_LIMIT, "configuration", message, instanceId, execution.id, message);
  }

  /** The batch's rows to delete: a local activity's result never was a row (negative seq). */
  private static List<Long> seqs(TurnLease lease) {
    List<Long> seqs = new ArrayList<>(lease.batch().size());
    lease
        .batch()
        .forEach(
            r -> {
              if (r.seq() > 0) {
                seqs.add(r.seq());
              }
            });
    return seqs;
  }
}
