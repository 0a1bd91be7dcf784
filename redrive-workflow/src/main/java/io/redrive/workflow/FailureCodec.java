package io.redrive.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link WorkflowFailure} as stored JSON, field by field: the stored form is a contract between
 * builds, so it is written explicitly rather than by reflection. Unknown fields are ignored and
 * missing ones read as null, so failures written by the store (an activity's) read too.
 */
final class FailureCodec {
  private FailureCodec() {}

  /** The failure as a JSON object (null fields left out). */
  static ObjectNode write(WorkflowFailure f) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("reason", f.reason());
    n.put("category", f.category());
    n.put("message", f.message());
    putIfSet(n, "type", f.type());
    putIfSet(n, "stackTrace", f.stackTrace());
    n.put("retryable", f.retryable());
    if (f.retryAfterMs() != null) {
      n.put("retryAfterMs", f.retryAfterMs());
    }
    if (f.attempt() != null) {
      n.put("attempt", f.attempt());
    }
    if (f.maxAttempts() != null) {
      n.put("maxAttempts", f.maxAttempts());
    }
    if (f.target() != null) {
      n.put("target", f.target().name());
    }
    putIfSet(n, "instanceId", f.instanceId());
    if (f.executionId() != null) {
      n.put("executionId", f.executionId());
    }
    putIfSet(n, "activityName", f.activityName());
    if (f.activityId() != null) {
      n.put("activityId", f.activityId());
    }
    putIfSet(n, "poisonedMessage", f.poisonedMessage());
    if (!f.via().isEmpty()) {
      ArrayNode via = n.putArray("via");
      f.via().forEach(via::add);
    }
    if (f.lastAttempt() != null) {
      n.set("lastAttempt", write(f.lastAttempt()));
    }
    if (f.cause() != null) {
      n.set("cause", write(f.cause()));
    }
    n.put("display", f.display());
    return n;
  }

  /**
   * The failure {@code n} holds.
   *
   * @throws IllegalArgumentException when it is not a failure object
   */
  static WorkflowFailure read(JsonNode n) {
    if (n == null || !n.isObject() || text(n, "reason") == null) {
      throw new IllegalArgumentException("failure: not a failure object: " + n);
    }
    List<String> via = new ArrayList<>();
    n.path("via").forEach(v -> via.add(v.asText()));
    String target = text(n, "target");
    return new WorkflowFailure(
        text(n, "reason"),
        text(n, "category"),
        text(n, "message"),
        text(n, "type"),
        text(n, "stackTrace"),
        n.path("retryable").asBoolean(false),
        n.hasNonNull("retryAfterMs") ? n.get("retryAfterMs").asLong() : null,
        n.hasNonNull("attempt") ? n.get("attempt").asInt() : null,
        n.hasNonNull("maxAttempts") ? n.get("maxAttempts").asInt() : null,
        target == null ? null : PoisonTarget.valueOf(target),
        text(n, "instanceId"),
        n.hasNonNull("executionId") ? n.get("executionId").asInt() : null,
        text(n, "activityName"),
        n.hasNonNull("activityId") ? n.get("activityId").asLong() : null,
        text(n, "poisonedMessage"),
        via,
        n.hasNonNull("lastAttempt") ? read(n.get("lastAttempt")) : null,
        n.hasNonNull("cause") ? read(n.get("cause")) : null,
        text(n, "display"));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static void putIfSet(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }
}
