package io.redrive.workflow.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.store.HistoryRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One parsed history event of an execution (docs/workflows.md, "History event kinds").
 *
 * @param eventId its position, from 1
 * @param kind the event kind (see {@link EventKind})
 * @param seq the command number it belongs to, or null
 * @param name a name it carries, or null
 * @param data its JSON
 * @param turn the turn that wrote it
 * @param at the start time of that turn
 */
public record HistoryEvent(
    int eventId, String kind, Long seq, String name, JsonNode data, int turn, Instant at) {

  /**
   * Parses a stored row.
   *
   * @throws HistoryUnreadableException when its data is not JSON or its kind is unknown
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
    try {
      JsonNode data = mapper.readTree(row.data());
      if (data == null || !data.isObject()) {
        throw new HistoryUnreadableException(
            "event "
                + row.eventId()
                + " ("
                + row.kind()
                + ") of execution "
                + row.executionId()
                + ": data is not a JSON object");
      }
      return new HistoryEvent(
          row.eventId(), row.kind(), row.seq(), row.name(), data, row.turn(), row.at());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new HistoryUnreadableException(
          "event "
              + row.eventId()
              + " ("
              + row.kind()
              + ") of execution "
              + row.executionId()
              + ": "
              + e.getOriginalMessage());
    }
  }

  /**
   * The history as replay sees it: events an operator's retry voided (a system failure's completion
   * and the failure itself) and the retry events are left out.
   */
  public static List<HistoryEvent> withoutVoided(List<HistoryEvent> stored) {
    Set<Integer> voided = new HashSet<>();
    for (HistoryEvent e : stored) {
      if (EventKind.ORCHESTRATION_RETRIED.equals(e.kind())) {
        voided.add(e.eventId());
        e.data().path("voided").forEach(v -> voided.add(v.asInt()));
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

  /** True for the events that code issues and replay matches: scheduled work and patches. */
  public boolean isCommand() {
    return EventKind.COMMANDS.contains(kind);
  }

  /** The text of a data field, or null. */
  public String text(String field) {
    JsonNode n = data.get(field);
    return n == null || n.isNull() ? null : n.asText();
  }

  /** An integer data field, or {@code fallback}. */
  public int integer(String field, int fallback) {
    JsonNode n = data.get(field);
    return n == null || n.isNull() ? fallback : n.asInt();
  }
}
