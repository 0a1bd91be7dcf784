package io.redrive.workflow.runtime;

import io.redrive.store.workflow.CommitTurnParams.ActivityStart;
import io.redrive.store.workflow.CommitTurnParams.ChildStart;
import io.redrive.store.workflow.CommitTurnParams.NewInboxRow;
import io.redrive.store.workflow.ExecutionRow;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.workflow.history.Event;
import io.redrive.workflow.history.EventCodec;
import io.redrive.workflow.history.HistoryEvent;
import io.redrive.workflow.history.InboxCodec;
import io.redrive.workflow.history.InboxMessage;
import io.redrive.workflow.replay.Payloads;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What one turn is about to commit to one execution: its new history events (ids continuing the
 * stored ones), and the inbox rows, children and activity messages they imply. Not thread-safe: one
 * turn's decider fills it.
 */
final class TurnDraft {
  final int executionId;
  final int turn;
  final Instant at;
  private final Payloads payloads;
  private final int firstEventId;
  private int nextEventId;
  final List<HistoryEvent> events = new ArrayList<>();

  /** The encoded events, filled on first use: the size check and the commit both need them. */
  private final List<EventCodec.Stored> encoded = new ArrayList<>();

  private final List<String> texts = new ArrayList<>();
  final List<NewInboxRow> inbox = new ArrayList<>();
  final List<ChildStart> children = new ArrayList<>();
  final List<ActivityStart> activities = new ArrayList<>();
  final List<ExecutionRow> executions = new ArrayList<>();

  /**
   * The stored events of this execution and the crashes charged to its local activities, set by a
   * turn that runs code (so its commit lists the local activities left to run); null otherwise.
   */
  List<HistoryEvent> storedEvents;

  java.util.Map<String, List<io.redrive.workflow.history.InboxMessage.LocalCrash>> localCrashes;

  TurnDraft(int executionId, int lastEventId, int turn, Instant at, Payloads payloads) {
    this.executionId = executionId;
    this.firstEventId = lastEventId + 1;
    this.nextEventId = firstEventId;
    this.turn = turn;
    this.at = at;
    this.payloads = payloads;
  }

  /** Appends an event with the next id. */
  HistoryEvent add(Event event) {
    HistoryEvent e = new HistoryEvent(nextEventId++, turn, at, event);
    events.add(e);
    return e;
  }

  /** Adds an inbox row for {@code instanceId}'s {@code executionId} (null: its current one). */
  void send(
      String instanceId,
      Integer executionId,
      InboxMessage message,
      Instant visibleAt,
      String dedupeKey) {
    InboxCodec.Stored s = InboxCodec.encode(message);
    inbox.add(
        new NewInboxRow(
            instanceId,
            executionId,
            s.kind(),
            s.refSeq(),
            s.name(),
            s.data(),
            visibleAt,
            dedupeKey));
  }

  /** Drops the events drafted after the first {@code size}; ids continue from there. */
  void truncate(int size) {
    events.subList(size, events.size()).clear();
    if (encoded.size() > size) {
      encoded.subList(size, encoded.size()).clear();
      texts.subList(size, texts.size()).clear();
    }
    nextEventId = firstEventId + size;
  }

  /** The events as rows for the store (data written by the runtime's mapper). */
  List<HistoryRow> rows() {
    encodeAll();
    List<HistoryRow> rows = new ArrayList<>(events.size());
    for (int i = 0; i < events.size(); i++) {
      HistoryEvent e = events.get(i);
      EventCodec.Stored s = encoded.get(i);
      rows.add(
          new HistoryRow(
              executionId,
              e.eventId(),
              s.kind(),
              s.seq(),
              s.name(),
              texts.get(i),
              e.turn(),
              e.at()));
    }
    return rows;
  }

  /** Bytes of the drafted events' data. */
  long bytes() {
    encodeAll();
    long sum = 0;
    for (String text : texts) {
      sum += text.getBytes(StandardCharsets.UTF_8).length;
    }
    return sum;
  }

  private void encodeAll() {
    for (int i = encoded.size(); i < events.size(); i++) {
      EventCodec.Stored s = EventCodec.encode(events.get(i).event());
      encoded.add(s);
      texts.add(payloads.text(s.data()));
    }
  }
}
