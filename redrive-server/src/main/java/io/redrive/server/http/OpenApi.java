package io.redrive.server.http;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3.0 document, generated from the route table and the request body records, so that it
 * lists exactly the endpoints the server serves with exactly the fields it accepts.
 */
final class OpenApi {
  private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z]+)}");

  private OpenApi() {}

  static Map<String, Object> document(List<Route> routes, String version) {
    Map<String, Object> schemas = new LinkedHashMap<>();
    schemas.put("Error", errorSchema());
    Map<String, Object> paths = new LinkedHashMap<>();
    for (Route r : routes) {
      @SuppressWarnings("unchecked")
      Map<String, Object> item =
          (Map<String, Object>) paths.computeIfAbsent(r.path(), p -> new LinkedHashMap<>());
      item.put(r.method().name().toLowerCase(Locale.ROOT), operation(r, schemas));
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.0.3");
    doc.put(
        "info",
        Map.of(
            "title", "Redrive HTTP API",
            "version", version,
            "description", "Durable work queue: queues, enqueue, lease and settle, dead letters."));
    doc.put("paths", paths);
    Map<String, Object> components = new LinkedHashMap<>();
    components.put("schemas", schemas);
    components.put("securitySchemes", Map.of("bearer", Map.of("type", "http", "scheme", "bearer")));
    doc.put("components", components);
    return doc;
  }

  private static Map<String, Object> operation(Route r, Map<String, Object> schemas) {
    Map<String, Object> op = new LinkedHashMap<>();
    op.put("summary", r.summary());
    op.put("operationId", operationId(r));
    List<Object> parameters = new ArrayList<>();
    Matcher m = PARAM.matcher(r.path());
    while (m.find()) {
      parameters.add(
          Map.of("name", m.group(1), "in", "path", "required", true, "schema", string()));
    }
    for (String q : r.queryParams()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("name", q);
      p.put("in", "query");
      p.put("required", false);
      p.put("schema", q.equals("state") ? Map.of("type", "array", "items", string()) : string());
      parameters.add(p);
    }
    if (!parameters.isEmpty()) {
      op.put("parameters", parameters);
    }
    if (r.requestBody() != null) {
      String name = schemaFor(r.requestBody(), schemas);
      op.put(
          "requestBody",
          Map.of(
              "required",
              true,
              "content",
              Map.of("application/json", Map.of("schema", ref(name)))));
    }
    Map<String, Object> responses = new LinkedHashMap<>();
    Map<String, Object> ok = new LinkedHashMap<>();
    ok.put("description", r.response() == null ? "no content" : r.response());
    if (r.response() != null) {
      Map<String, Object> schema = new LinkedHashMap<>();
      schema.put("type", r.response().equals("Metrics") ? "string" : "object");
      schema.put("title", r.response());
      String type = r.response().equals("Metrics") ? "text/plain" : "application/json";
      ok.put("content", Map.of(type, Map.of("schema", schema)));
    }
    responses.put(String.valueOf(r.status()), ok);
    responses.put(
        "default",
        Map.of(
            "description",
            "error: {\"error\": {\"code\", \"message\"}}",
            "content",
            Map.of("application/json", Map.of("schema", ref("Error")))));
    op.put("responses", responses);
    if (r.permission() != null) {
      op.put("security", List.of(Map.of("bearer", List.of())));
      op.put("x-redrive-permission", r.permission().name());
    }
    return op;
  }

  private static String operationId(Route r) {
    StringBuilder b = new StringBuilder(r.method().name().toLowerCase(Locale.ROOT));
    for (String part : r.path().split("/")) {
      if (part.isEmpty() || part.equals("v1")) {
        continue;
      }
      String clean = part.replaceAll("[{}.]", "");
      if (part.startsWith("{")) {
        clean = "By" + Character.toUpperCase(clean.charAt(0)) + clean.substring(1);
      }
      b.append(Character.toUpperCase(clean.charAt(0))).append(clean.substring(1));
    }
    return b.toString();
  }

  /** Adds the schema of a request record (and the records it contains); returns its name. */
  private static String schemaFor(Class<?> type, Map<String, Object> schemas) {
    String name = type.getSimpleName();
    if (schemas.containsKey(name)) {
      return name;
    }
    schemas.put(name, Map.of());
    Map<String, Object> properties = new LinkedHashMap<>();
    for (RecordComponent c : type.getRecordComponents()) {
      JsonProperty renamed = c.getAccessor().getAnnotation(JsonProperty.class);
      String field = renamed == null ? c.getName() : renamed.value();
      properties.put(field, typeSchema(c.getGenericType(), schemas));
    }
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("additionalProperties", false);
    schema.put("properties", properties);
    schemas.put(name, schema);
    return name;
  }

  private static Object typeSchema(Type type, Map<String, Object> schemas) {
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      if (List.class.isAssignableFrom(raw)) {
        return Map.of("type", "array", "items", typeSchema(p.getActualTypeArguments()[0], schemas));
      }
      if (Map.class.isAssignableFrom(raw)) {
        return Map.of(
            "type",
            "object",
            "additionalProperties",
            typeSchema(p.getActualTypeArguments()[1], schemas));
      }
    }
    Class<?> c = (Class<?>) type;
    if (c == String.class) {
      return string();
    }
    if (c == Integer.class || c == Long.class) {
      return Map.of("type", "integer", "minimum", 0);
    }
    if (c == Double.class) {
      return Map.of("type", "number");
    }
    if (c == Boolean.class) {
      return Map.of("type", "boolean");
    }
    if (c == Instant.class) {
      return Map.of("type", "string", "format", "date-time");
    }
    if (c == JsonNode.class) {
      return Map.of("description", "any JSON value");
    }
    if (c.isRecord()) {
      return ref(schemaFor(c, schemas));
    }
    return Map.of("type", "object");
  }

  private static Map<String, Object> errorSchema() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("type", "object");
    inner.put("properties", Map.of("code", string(), "message", string()));
    inner.put("required", List.of("code", "message"));
    Map<String, Object> outer = new LinkedHashMap<>();
    outer.put("type", "object");
    outer.put("properties", Map.of("error", inner));
    outer.put("required", List.of("error"));
    return outer;
  }

  private static Map<String, Object> string() {
    return Map.of("type", "string");
  }

  private static Map<String, Object> ref(String name) {
    return Map.of("$ref", "#/components/schemas/" + name);
  }
}
