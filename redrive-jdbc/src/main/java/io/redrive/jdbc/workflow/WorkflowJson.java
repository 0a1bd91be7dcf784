package io.redrive.jdbc.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.failure.FailureReason;
import io.redrive.failure.FailureRecord;
import io.redrive.jdbc.owned.AttemptStories;
import io.redrive.jdbc.owned.EndedMessage;
import io.redrive.message.HistoryEntry;
import io.redrive.store.workflow.ActivityResult;
import java.time.Duration;
import java.util.List;

/** JSON text of the inbox rows the store itself writes (docs/workflows.md). */
final class WorkflowJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private WorkflowJson() {}

  /**
   * The data of an ACTIVITY_RESULT inbox row (docs/workflows.md, "Activity results"): how the
   * activity message ended, its result or failure, and its attempt story.
   *
   * @param failure the failure that ended it, or null
   * @param attempts its attempt story, this end included
   * @throws IllegalArgumentException when the message's result is not valid JSON
   */
  static String activityResult(
      EndedMessage message, FailureRecord failure, List<HistoryEntry> attempts) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("messageId", message.id());
    n.put("outcome", message.ending().name());
    n.put("attempt", message.attempts());
    if (message.result() != null) {
      try {
        n.set("result", MAPPER.readTree(message.result()));
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            "result: not valid JSON (" + e.getOriginalMessage() + ")", e);
      }
    }
    if (failure != null) {
      ObjectNode f = n.putObject("failure");
      f.put("reason", failure.reason().name());
      f.put("category", failure.reason().category().name());
      f.put("message", failure.message());
      f.put("retryable", failure.retryable());
      f.put("attempt", failure.attempt());
      f.put("maxAttempts", failure.maxAttempts());
      if (message.retryAfter() != null) {
        f.put("retryAfterMs", message.retryAfter().toMillis());
      }
      f.put("stackTrace", failure.stackTrace());
      f.put("poisonedMessage", failure.poisonedMessage());
    }
    n.set("attempts", AttemptStories.json(attempts));
    return n.toString();
  }

  /**
   * What an ACTIVITY_RESULT row's data says ({@link #activityResult}'s shape), or null when it is
   * not that shape: the runtime then treats the row as unreadable.
   */
  static ActivityResult readActivityResult(String data) {
    try {
      JsonNode n = MAPPER.readTree(data);
      if (n == null || !n.isObject() || !n.hasNonNull("outcome")) {
        return null;
      }
      ActivityResult.Outcome outcome = ActivityResult.Outcome.valueOf(n.get("outcome").asText());
      JsonNode f = n.get("failure");
      FailureRecord failure = null;
      Duration retryAfter = null;
      if (f != null && f.isObject()) {
        failure =
            new FailureRecord(
                FailureReason.valueOf(f.path("reason").asText()),
                text(f, "message"),
                f.path("retryable").asBoolean(false),
                f.path("attempt").asInt(),
                f.path("maxAttempts").asInt(),
                null,
                null,
                text(f, "stackTrace"),
                text(f, "poisonedMessage"));
        retryAfter =
            f.hasNonNull("retryAfterMs") ? Duration.ofMillis(f.get("retryAfterMs").asLong()) : null;
      }
      return new ActivityResult(
          text(n, "messageId"),
          outcome,
          n.path("attempt").asInt(),
          n.has("result") ? n.get("result").toString() : null,
          failure,
          retryAfter,
          n.has("attempts") ? n.get("attempts").toString() : null);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return null;
    }
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  /** The data of a TERMINATE inbox row: {@code {"reason": ...}} (null reason: null data). */
  static String terminateReason(String reason) {
    return reason == null ? null : MAPPER.createObjectNode().put("reason", reason).toString();
  }
}
