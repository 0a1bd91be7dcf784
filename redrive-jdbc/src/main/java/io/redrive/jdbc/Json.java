package io.redrive.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.jdbc.owned.AttemptStories;
import io.redrive.message.HistoryEntry;
import java.util.List;
import java.util.Map;

/** JSON text for headers and for the message snapshot carried by a POISON failure. */
final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {};

  private Json() {}

  static String headers(Map<String, String> headers) {
    if (headers == null || headers.isEmpty()) {
      return null;
    }
    try {
      return MAPPER.writeValueAsString(headers);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("headers could not be written as JSON", e);
    }
  }

  static Map<String, String> headers(String json) {
    if (json == null || json.isEmpty()) {
      return Map.of();
    }
    try {
      return Map.copyOf(MAPPER.readValue(json, HEADERS));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored headers are not valid JSON: " + json, e);
    }
  }

  /** The full message with its attempt history, as stored in a POISON failure record. */
  static String snapshot(MessageRow row, int maxAttempts, List<HistoryEntry> history) {
    return snapshotNode(row, maxAttempts, history).toString();
  }

  /**
   * The snapshot of a message poisoned by the crash-loop breaker: as {@link #snapshot}, plus the
   * workers it crashed ({@code crashedWorkers}) and the queue's {@code maxCrashes}.
   */
  static String snapshot(
      MessageRow row,
      int maxAttempts,
      List<HistoryEntry> history,
      List<String> crashedWorkers,
      int maxCrashes) {
    ObjectNode n = snapshotNode(row, maxAttempts, history);
    n.put("maxCrashes", maxCrashes);
    n.set("crashedWorkers", MAPPER.valueToTree(crashedWorkers));
    return n.toString();
  }

  private static ObjectNode snapshotNode(
      MessageRow row, int maxAttempts, List<HistoryEntry> history) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("id", row.id());
    n.put("queue", row.queue());
    n.put("type", row.type());
    n.put("payload", row.payload());
    n.set("headers", MAPPER.valueToTree(headers(row.headers())));
    n.put("stream", row.stream());
    n.put("attempts", row.attempts());
    n.put("maxAttempts", maxAttempts);
    n.put("progress", row.progress());
    n.put("enqueuedAt", java.time.Instant.ofEpochMilli(row.enqueuedAt()).toString());
    n.set("history", AttemptStories.json(history));
    return n;
  }
}
