package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.store.workflow.InstanceRow;
import io.redrive.workflow.OrchestrationContext.ParentRef;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.history.Event.OrchestrationStarted;
import io.redrive.workflow.history.Event.RaisedEvent;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxMessage.Continue;
import io.redrive.workflow.history.InboxMessage.Start;
import io.redrive.workflow.replay.Payloads;
import java.time.Instant;
import java.util.List;

/**
 * The execution a turn runs and what its start says: the stored one, or a new one that a START or
 * CONTINUE row begins. Filled by the decider of one turn; not thread-safe.
 */
final class TurnExecution {
  /** The version recorded for an execution poisoned before any code was found. */
  static final String UNRESOLVED = "unresolved";

  int id;
  String name;
  String version;
  String requestedVersion;
  JsonNode input;
  long firstSeq = 1;
  List<RaisedEvent> carried = List.of();
  ParentRef parent;
  boolean isNew;
  Instant startedAt;

  /**
   * The execution of a turn of {@code i} whose batch is {@code batch} and whose current execution's
   * live history is {@code stored}; null when history ended by a continue-as-new whose CONTINUE row
   * is not in the batch (the batch holds only late results).
   */
  static TurnExecution of(
      InstanceRow i,
      List<HistoryEvent> stored,
      TurnBatch batch,
      WorkflowRegistry registry,
      Payloads payloads) {
    TurnExecution e = new TurnExecution();
    e.name = i.name();
    if (i.parentId() != null) {
      e.parent =
          new ParentRef(
              i.parentId(),
              i.parentExecution() == null ? 1 : i.parentExecution(),
              i.parentSeq() == null ? 0 : i.parentSeq());
    }
    if (stored.isEmpty()) {
      Start start = batch.first(Start.class);
      e.id = i.executionId();
      e.isNew = true;
      e.requestedVersion = i.requestedVersion();
      e.input = start != null ? start.input() : payloads.parse(i.input());
    } else if (stored.get(stored.size() - 1).event()
        instanceof io.redrive.workflow.history.Event.ContinuedAsNew) {
      Continue next = batch.first(Continue.class);
      if (next == null) {
        return null;
      }
      e.id = i.executionId() + 1;
      e.isNew = true;
      e.requestedVersion = next.version();
      e.input = next.input();
      e.firstSeq = next.firstSeq();
      e.carried = next.carriedEvents();
    } else {
      OrchestrationStarted started = (OrchestrationStarted) stored.get(0).event();
      e.id = i.executionId();
      e.version = i.version() != null ? i.version() : started.version();
      e.requestedVersion = i.requestedVersion();
      if (UNRESOLVED.equals(e.version)) {
        // Poisoned before any code was found, then retried by an operator: resolve it now.
        e.version = e.resolvedVersion(registry);
      }
      e.input = started.input();
      e.firstSeq = started.firstSeq();
      e.carried = started.carriedEvents();
      e.startedAt = stored.get(0).at();
      return e;
    }
    e.version = e.resolvedVersion(registry);
    return e;
  }

  /** The execution an instance row alone describes (when its history cannot be used). */
  static TurnExecution ofInstance(InstanceRow i, Payloads payloads, Instant startedAt) {
    TurnExecution e = new TurnExecution();
    e.id = i.executionId();
    e.name = i.name();
    e.version = i.version();
    e.input = payloads.parse(i.input());
    e.startedAt = startedAt;
    return e;
  }

  private String resolvedVersion(WorkflowRegistry registry) {
    return requestedVersion != null ? requestedVersion : registry.defaultVersion(name).orElse(null);
  }

  /** The START event of this (new) execution. */
  OrchestrationStarted started(String instanceId) {
    return new OrchestrationStarted(
        instanceId, name, version == null ? UNRESOLVED : version, input, parent, firstSeq, carried);
  }
}
