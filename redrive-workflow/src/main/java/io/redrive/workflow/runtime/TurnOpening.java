package io.redrive.workflow.runtime;

import io.redrive.store.workflow.HistoryRow;
import io.redrive.store.workflow.TurnLease;
import io.redrive.workflow.history.Event.TurnStarted;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.replay.Payloads;
import java.time.Instant;
import java.util.List;

/**
 * Opens a turn's draft: ORCHESTRATION_STARTED for a new execution, then TURN_STARTED with the
 * turn's number, node, build and try. Thread-safe.
 */
final class TurnOpening {
  private final RuntimeSettings settings;
  private final Payloads payloads;

  TurnOpening(RuntimeSettings settings, Payloads payloads) {
    this.settings = settings;
    this.payloads = payloads;
  }

  TurnDraft open(TurnLease lease, TurnExecution execution, List<HistoryEvent> stored, Instant now) {
    int turn =
        execution.isNew
            ? 1
            : (int) stored.stream().filter(e -> e.event() instanceof TurnStarted).count() + 1;
    TurnDraft draft =
        new TurnDraft(execution.id, execution.isNew ? 0 : lastEventId(lease), turn, now, payloads);
    if (execution.isNew) {
      draft.add(execution.started(lease.instance().id()));
      execution.startedAt = now;
    }
    draft.add(new TurnStarted(turn, settings.nodeId(), settings.buildId(), lease.attempt()));
    return draft;
  }

  /** A draft that only appends to the stored history (no new turn): ids after every stored row. */
  TurnDraft append(TurnLease lease, Instant now) {
    return new TurnDraft(lease.instance().executionId(), lastEventId(lease), 0, now, payloads);
  }

  /** The last stored event id, voided ones included (ids never repeat). */
  static int lastEventId(TurnLease lease) {
    return lease.history().stream().mapToInt(HistoryRow::eventId).max().orElse(0);
  }
}
