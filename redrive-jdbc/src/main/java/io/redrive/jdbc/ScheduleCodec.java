package io.redrive.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stored form of a schedule's spec ({@code spec_kind}, {@code spec}, {@code zone}) and target
 * (JSON in {@code target}); the only place that knows the target's key names.
 */
final class ScheduleCodec {
  static final String CRON = "CRON";
  static final String EVERY = "EVERY";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ScheduleCodec() {}

  static String kind(ScheduleSpec spec) {
    return spec instanceof ScheduleSpec.Cron ? CRON : EVERY;
  }

  static String text(ScheduleSpec spec) {
    return spec instanceof ScheduleSpec.Cron cron
        ? cron.expression()
        : Long.toString(((ScheduleSpec.Every) spec).interval().toMillis());
  }

  static String zone(ScheduleSpec spec) {
    return spec instanceof ScheduleSpec.Cron cron ? cron.zone().getId() : null;
  }

  static ScheduleSpec spec(String kind, String text, String zone) {
    return CRON.equals(kind)
        ? ScheduleSpec.cron(text, zone)
        : ScheduleSpec.every(Duration.ofMillis(Long.parseLong(text)));
  }

  static String target(ScheduleTarget target) {
    ObjectNode n = MAPPER.createObjectNode();
    if (target instanceof ScheduleTarget.Message m) {
      n.put("kind", "message");
      n.put("queue", m.queue());
      n.put("type", m.type());
      n.put("payload", m.payload());
      n.set("headers", MAPPER.valueToTree(m.headers()));
      n.put("stream", m.stream());
      if (m.expireAfter() != null) {
        n.put("expireAfterMs", m.expireAfter().toMillis());
      }
      if (m.priority() != null) {
        n.put("priority", m.priority());
      }
      if (m.limitKey() != null) {
        n.put("limitKey", m.limitKey());
      }
    } else {
      ScheduleTarget.Workflow w = (ScheduleTarget.Workflow) target;
      n.put("kind", "workflow");
      n.put("name", w.name());
      n.put("input", w.input());
      n.put("version", w.version());
    }
    return n.toString();
  }

  static ScheduleTarget target(String json) {
    JsonNode n;
    try {
      n = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored schedule target is not valid JSON: " + json, e);
    }
    if ("workflow".equals(n.path("kind").asText())) {
      return new ScheduleTarget.Workflow(
          n.path("name").asText(), text(n, "input"), text(n, "version"));
    }
    Map<String, String> headers = new LinkedHashMap<>();
    n.path("headers")
        .fields()
        .forEachRemaining(e -> headers.put(e.getKey(), e.getValue().asText()));
    return new ScheduleTarget.Message(
        n.path("queue").asText(),
        n.path("type").asText(),
        n.path("payload").asText(),
        headers,
        text(n, "stream"),
        n.hasNonNull("expireAfterMs") ? Duration.ofMillis(n.get("expireAfterMs").asLong()) : null,
        n.hasNonNull("priority") ? n.get("priority").asInt() : null,
        text(n, "limitKey"));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
