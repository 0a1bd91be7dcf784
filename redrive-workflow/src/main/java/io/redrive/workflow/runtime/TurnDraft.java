package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.store.CommitTurnParams.ActivityStart;
import io.redrive.store.CommitTurnParams.ChildStart;
import io.redrive.store.CommitTurnParams.NewInboxRow;
import io.redrive.store.ExecutionRow;
import io.redrive.store.HistoryRow;
import io.redrive.workflow.replay.HistoryEvent;
import io.redrive.workflow.replay.NewEvent;
import io.redrive.workflow.replay.Payloads;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What one turn is about to commit to one execution: its new history events (ids continuing the
 * stored ones), and the inbox rows, children and activity messages they imply. Not thread-safe.
 */
final class TurnDraft {
  final int executionId;
  final int turn;
  final Instant at;
  private final Payloads payloads;
  private final int firstEventId;
  private int nextEventId;
  final List<HistoryEvent> events = new ArrayList<>();
  final List<NewInboxRow> inbox = new ArrayList<>();
  final List<ChildStart> children = new ArrayList<>();
  final List<ActivityStart> activities = new ArrayList<>();
  final List<ExecutionRow> executions = new ArrayList<>();

  /** Inbox rows of the instance the turn cancels beyond its batch (lost timeout timers). */
  final List<Long> cancelled = new ArrayList<>();

  TurnDraft(int executionId, int lastEventId, int turn, Instant at, Payloads payloads) {
    this.executionId = executionId;
    this.firstEventId = lastEventId + 1;
    this.nextEventId = firstEventId;
    this.turn = turn;
    this.at = at;
    this.payloads = payloads;
  }

  /** Appends an event with the next id. */
  HistoryEvent add(String kind, Long seq, String name, JsonNode data) {
    HistoryEvent e = new HistoryEvent(nextEventId++, kind, seq, name, data, turn, at);
    events.add(e);
    return e;
  }

  HistoryEvent add(NewEvent e) {
    return add(e.kind(), e.seq(), e.name(), e.data());
  }

  /** Drops the events drafted after the first {@code size}; ids continue from there. */
  void truncate(int size) {
    events.subList(size, events.size()).clear();
    nextEventId = firstEventId + size;
  }

  /** The events as rows for the store. */
  List<HistoryRow> rows() {
    List<HistoryRow> rows = new ArrayList<>(events.size());
    for (HistoryEvent e : events) {
      rows.add(
          new HistoryRow(
              executionId,
              e.eventId(),
              e.kind(),
              e.seq(),
              e.name(),
              payloads.text(e.data()),
              e.turn(),
              e.at()));
    }
    return rows;
  }

  /** Bytes of the drafted events' data. */
  long bytes() {
    long sum = 0;
    for (HistoryEvent e : events) {
      sum += payloads.size(e.data());
    }
    return sum;
  }

  static ObjectNode object() {
    return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
  }
}
