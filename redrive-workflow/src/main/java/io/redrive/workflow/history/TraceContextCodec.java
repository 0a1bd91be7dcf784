package io.redrive.workflow.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An instance's trace context as stored in {@code redrive_wf_instances.trace_context}: a JSON
 * object of W3C trace-context headers ({@code traceparent}, {@code tracestate}). Tracing only reads
 * it, never replay, so a value this code cannot read is treated as no trace context rather than
 * failing the instance. Stateless.
 */
public final class TraceContextCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private TraceContextCodec() {}

  /** {@code headers} as stored, or null when there are none. */
  public static String encode(Map<String, String> headers) {
    if (headers == null || headers.isEmpty()) {
      return null;
    }
    ObjectNode o = MAPPER.createObjectNode();
    headers.forEach(o::put);
    return o.toString();
  }

  /** The headers {@code stored} holds; empty for null or anything that is not such an object. */
  public static Map<String, String> decode(String stored) {
    if (stored == null || stored.isBlank()) {
      return Map.of();
    }
    JsonNode o;
    try {
      o = MAPPER.readTree(stored);
    } catch (java.io.IOException e) {
      return Map.of();
    }
    if (o == null || !o.isObject()) {
      return Map.of();
    }
    Map<String, String> headers = new LinkedHashMap<>();
    o.fields()
        .forEachRemaining(
            f -> {
              if (f.getValue().isTextual()) {
                headers.put(f.getKey(), f.getValue().asText());
              }
            });
    return headers;
  }
}
