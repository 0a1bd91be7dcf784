package io.redrive.workflow.runtime;

import io.redrive.store.workflow.CommitTurnParams.InstanceUpdate;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.store.workflow.InstanceRow.Status;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.TurnRow;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.history.Event.OrchestrationFailed;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxCodec;
import io.redrive.workflow.replay.Payloads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.event.Level;

/**
 * The end of an orchestration whose turn is poisoned (docs/workflows.md, "Attempts and poison"):
 * its tries ran out, the crash-loop breaker tripped, or its history cannot be read. No user code
 * runs; the failure carries the batch and the last try. Thread-safe.
 */
final class Poisoning {
  private final RuntimeSettings settings;
  private final WorkflowRegistry registry;
  private final Payloads payloads;
  private final TurnOpening opening;
  private final TurnEnding ending;

  Poisoning(
      RuntimeSettings settings,
      WorkflowRegistry registry,
      Payloads payloads,
      TurnOpening opening,
      TurnEnding ending) {
    this.settings = settings;
    this.registry = registry;
    this.payloads = payloads;
    this.opening = opening;
    this.ending = ending;
  }

  /**
   * The distinct nodes whose lease on this batch ran out since the last commit, oldest first: each
   * is a node that died (or hung) running it (the crash-loop breaker of docs/workflows.md).
   */
  static List<String> crashedNodes(TurnLease lease) {
    Set<String> nodes = new LinkedHashSet<>();
    for (TurnRow t : lease.turns()) {
      if ("LEASE_EXPIRED".equals(t.outcome()) && t.node() != null) {
        nodes.add(t.node());
      }
    }
    return new ArrayList<>(nodes);
  }

  /**
   * The poisoned turn's commit.
   *
   * @param unreadable why the history cannot be read, or null
   * @param crashed the nodes that crashed on it when the breaker tripped, or null
   */
  Decision.Commit poison(
      TurnLease lease,
      TurnBatch batch,
      List<HistoryEvent> stored,
      String unreadable,
      List<String> crashed,
      Instant now) {
    InstanceRow i = lease.instance();
    List<Observation> notes = new ArrayList<>();
    notes.add(new Observation.Poisoned("orchestration"));
    String poisoned = InboxCodec.poisonedBatch(i.id(), lease.attempt(), lease.batch());
    if (unreadable != null) {
      WorkflowFailure failure =
          WorkflowFailure.historyUnreadable(
              i.id(),
              i.executionId(),
              lease.attempt(),
              settings.maxAttempts(),
              unreadable,
              poisoned);
      // Append-only: the failure goes after every stored row, none of which is read.
      TurnDraft draft = opening.append(lease, now);
      draft.add(new OrchestrationFailed(failure));
      ending.notifyParent(
          i, TurnExecution.ofInstance(i, payloads, null), Status.FAILED, null, failure, draft, now);
      notes.add(new Observation.Log(Level.ERROR, "{} (instance {})", failure.display(), i.id()));
      InstanceUpdate update =
          new InstanceUpdate(
              Status.FAILED,
              i.executionId(),
              i.version(),
              i.input(),
              null,
              payloads.text(failure.toJsonTree()),
              i.customStatus());
      return ending.commit(lease, update, draft, "POISONED", List.of(), notes);
    }
    TurnExecution execution = TurnExecution.of(i, stored, batch, registry, payloads);
    if (execution == null) {
      execution =
          TurnExecution.ofInstance(i, payloads, stored.isEmpty() ? now : stored.get(0).at());
    }
    TurnDraft draft = opening.open(lease, execution, stored, now);
    WorkflowFailure last = LastAttempts.ofTurns(lease);
    WorkflowFailure failure =
        crashed != null
            ? WorkflowFailure.crashLoop(
                i.id(),
                execution.id,
                crashed,
                lease.attempt(),
                settings.maxCrashes(),
                poisoned,
                last)
            : WorkflowFailure.poisonedOrchestration(
                i.id(), execution.id, lease.attempt(), settings.maxAttempts(), poisoned, last);
    int storedEvents = execution.isNew ? 0 : stored.size();
    return ending.finish(
        lease, execution, storedEvents, draft, null, failure, List.of(), notes, now);
  }
}
