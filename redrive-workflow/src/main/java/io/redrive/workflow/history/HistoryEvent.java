package io.redrive.workflow.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.store.workflow.HistoryRow;
import io.redrive.workflow.history.Event.OrchestrationRetried;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One event of an execution's history with where it stands: its id (position from 1), the turn that
 * wrote it and that turn's time.
 */
public record HistoryEvent(int eventId, int turn, Instant at, Event event) {
  /**
   * Reads a stored row; {@code mapper} reads the JSON (the runtime's, so numbers read back as the
   * runtime wrote them).
   *
   * @throws HistoryUnreadableException when its data is not JSON, its kind is unknown, or a field
   *     the engine needs is missing
   */
  public static HistoryEvent parse(HistoryRow row, ObjectMapper mapper) {
    if (!EventKind.ALL.contains(row.kind())) {
      throw new HistoryUnreadableException(
          "event "
              + row.eventId()
              + " of execution "
              + row.executionId()
              + " has unknown kind \""
              + row.kind()
              + "\"");
    }
    JsonNode data;
    try {
      data = mapper.readTree(row.data());
    } catch (JsonProcessingException e) {
      throw new HistoryUnreadableException(where(row) + ": " + e.getOriginalMessage());
    }
    if (data == null || !data.isObject()) {
      throw new HistoryUnreadableException(where(row) + ": data is not a JSON object");
    }
    try {
      return new HistoryEvent(
          row.eventId(),
          row.turn(),
          row.at(),
          EventCodec.decode(row.kind(), row.seq(), row.name(), data));
    } catch (RuntimeException e) {
      throw new HistoryUnreadableException(where(row) + ": " + e.getMessage());
    }
  }

  // Built only on failure: parse runs for every stored event of every turn.
  private static String where(HistoryRow row) {
    return "event " + row.eventId() + " (" + row.kind() + ") of execution " + row.executionId();
  }

  /** Reads every row. @throws HistoryUnreadableException at the first row it cannot read */
  public static List<HistoryEvent> parseAll(List<HistoryRow> rows, ObjectMapper mapper) {
    List<HistoryEvent> events = new ArrayList<>(rows.size());
    for (HistoryRow row : rows) {
      events.add(parse(row, mapper));
    }
    return events;
  }

  /**
   * The history as replay sees it: events an operator's retry voided (a system failure's completion
   * and the failure itself) and the retry events are left out.
   */
  public static List<HistoryEvent> withoutVoided(List<HistoryEvent> stored) {
    Set<Integer> voided = new HashSet<>();
    for (HistoryEvent e : stored) {
      if (e.event() instanceof OrchestrationRetried r) {
        voided.add(e.eventId());
        voided.addAll(r.voided());
      }
    }
    if (voided.isEmpty()) {
      return stored;
    }
    List<HistoryEvent> live = new ArrayList<>(stored.size());
    for (HistoryEvent e : stored) {
      if (!voided.contains(e.eventId())) {
        live.add(e);
      }
    }
    return live;
  }

  /** The stored kind. */
  public String kind() {
    return event.kind();
  }
}
