package io.redrive.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.redrive.failure.FailureReason;
import io.redrive.message.MessageQuery;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3.0 document, generated from the route table, the request body records of {@link
 * RequestBodies} and the response records of {@link Responses}, so that it lists exactly the
 * endpoints the server serves, the fields it accepts (with their bounds) and the shapes it answers.
 */
final class OpenApi {
  /** Times in answers: ISO-8601 UTC with exactly three fraction digits (milliseconds). */
  static final String INSTANT_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$";

  private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z]+)}");

  private final Map<String, Object> schemas = new LinkedHashMap<>();
  private final Map<String, Class<?>> schemaTypes = new LinkedHashMap<>();

  private OpenApi() {}

  static Map<String, Object> document(List<Route> routes, String version) {
    return new OpenApi().build(routes, version);
  }

  private Map<String, Object> build(List<Route> routes, String version) {
    schemaFor(Responses.Error.class, true);
    Map<String, Object> paths = new LinkedHashMap<>();
    for (Route r : routes) {
      @SuppressWarnings("unchecked")
      Map<String, Object> item =
          (Map<String, Object>) paths.computeIfAbsent(r.path(), p -> new LinkedHashMap<>());
      item.put(r.method().name().toLowerCase(Locale.ROOT), operation(r));
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.0.3");
    doc.put(
        "info",
        Map.of(
            "title",
            "Redrive HTTP API",
            "version",
            version,
            "description",
            "Durable work queue and workflows: queues, enqueue, lease and settle, dead letters,"
                + " orchestration instances."));
    doc.put("paths", paths);
    Map<String, Object> components = new LinkedHashMap<>();
    components.put("schemas", schemas);
    components.put("securitySchemes", Map.of("bearer", Map.of("type", "http", "scheme", "bearer")));
    doc.put("components", components);
    return doc;
  }

  private Map<String, Object> operation(Route r) {
    Map<String, Object> op = new LinkedHashMap<>();
    op.put("summary", r.summary());
    op.put("operationId", operationId(r));
    if (r.aliasOf() != null) {
      op.put("deprecated", true);
    }
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
      p.put("schema", querySchema(q));
      parameters.add(p);
    }
    if (!parameters.isEmpty()) {
      op.put("parameters", parameters);
    }
    if (r.requestBody() != null) {
      String name = schemaFor(r.requestBody(), false);
      op.put(
          "requestBody",
          Map.of(
              "required",
              r.bodyRequired(),
              "content",
              Map.of("application/json", Map.of("schema", ref(name)))));
    }
    Map<String, Object> responses = new LinkedHashMap<>();
    responses.put(String.valueOf(r.status()), response(r.response()));
    r.otherResponses()
        .forEach((status, body) -> responses.put(String.valueOf(status), response(body)));
    errors(r)
        .forEach(
            (status, codes) -> {
              String key = String.valueOf(status);
              if (responses.containsKey(key)) {
                // /ready's own 503 body: it still carries Retry-After like the errors do
                if (status == 503) {
                  responses.put(key, withRetryAfter(responses.get(key)));
                }
              } else {
                responses.put(key, errorResponse(status, codes));
              }
            });
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

  /**
   * The error answers a call of {@code r} can get besides its own: those of the request guard, and
   * for an API route (one that needs a permission, and calls the store) the key checks and the
   * store's 503s ({@code COMMIT_UNKNOWN} only where the call writes).
   */
  private static Map<Integer, List<String>> errors(Route r) {
    Map<Integer, List<String>> errors = new TreeMap<>(RequestGuard.errorsFor(r.method()));
    if (r.permission() != null) {
      errors.put(401, List.of("UNAUTHORIZED"));
      List<String> forbidden = new ArrayList<>(List.of("FORBIDDEN"));
      forbidden.addAll(errors.getOrDefault(403, List.of()));
      errors.put(403, forbidden);
      errors.put(
          503,
          RequestGuard.changesState(r.method())
              ? List.of("STORE_UNAVAILABLE", "COMMIT_UNKNOWN")
              : List.of("STORE_UNAVAILABLE"));
    } else if (r.otherResponses().containsKey(503)) {
      errors.put(503, List.of());
    }
    return errors;
  }

  private static Map<String, Object> errorResponse(int status, List<String> codes) {
    StringBuilder description = new StringBuilder("error");
    for (String code : codes) {
      description
          .append(description.length() == 5 ? ": " : "; ")
          .append(code)
          .append(" (")
          .append(ERROR_MEANINGS.get(code))
          .append(')');
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("description", description.toString());
    out.put("content", Map.of("application/json", Map.of("schema", ref("Error"))));
    out.put("x-redrive-codes", codes);
    return status == 503 ? withRetryAfter(out) : out;
  }

  private static Map<String, Object> withRetryAfter(Object response) {
    @SuppressWarnings("unchecked")
    Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) response);
    out.put(
        "headers",
        Map.of(
            "Retry-After",
            Map.of(
                "description",
                "seconds to wait before retrying",
                "schema",
                Map.of("type", "integer", "minimum", 0))));
    return out;
  }

  /** One line per error code the document lists per route (see docs/api.md, "Errors"). */
  private static final Map<String, String> ERROR_MEANINGS =
      Map.of(
          "MISDIRECTED_REQUEST", "the Host header does not name this server",
          "ORIGIN_NOT_ALLOWED", "the Origin header names a host not allowed to change state",
          "UNSUPPORTED_MEDIA_TYPE",
              "a body not sent as application/json, or no body without a JSON type or"
                  + " X-Redrive-Request",
          "UNAUTHORIZED", "keys are configured and the request has no valid one",
          "FORBIDDEN", "the key's role or queues do not allow the call",
          "STORE_UNAVAILABLE",
              "the database is down, unreachable or not answering; nothing happened",
          "COMMIT_UNKNOWN", "the connection was lost at COMMIT: the change may have happened");

  private Map<String, Object> response(Class<?> body) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (body == null) {
      out.put("description", "no content");
    } else if (body == Responses.PrometheusText.class) {
      out.put("description", "Prometheus text format");
      out.put("content", Map.of("text/plain", Map.of("schema", string())));
    } else if (body == Responses.OpenApiDocument.class) {
      out.put("description", "this OpenAPI document");
      out.put("content", Map.of("application/json", Map.of("schema", Map.of("type", "object"))));
    } else {
      String name = schemaFor(body, true);
      out.put("description", name);
      out.put("content", Map.of("application/json", Map.of("schema", ref(name))));
    }
    return out;
  }

  private static Map<String, Object> querySchema(String name) {
    switch (name) {
      case "state":
        return Map.of(
            "type",
            "array",
            "items",
            Map.of("type", "string", "enum", List.of("ready", "scheduled", "leased", "dead")));
      case "status":
        return Map.of(
            "type",
            "array",
            "items",
            Map.of(
                "type",
                "string",
                "enum",
                List.of("pending", "running", "completed", "failed", "terminated")));
      case "limit":
        return Map.of("type", "integer", "minimum", 1, "maximum", MessageQuery.MAX_LIMIT);
      case "reason":
      case "deadReason":
        return Map.of("type", "string", "enum", enumNames(FailureReason.class));
      default:
        return string();
    }
  }

  private static String operationId(Route r) {
    StringBuilder b = new StringBuilder(r.method().name().toLowerCase(Locale.ROOT));
    for (String part : r.path().split("/")) {
      if (part.isEmpty() || part.equals("v1")) {
        continue;
      }
      String clean = part.replaceAll("[{}.]", "");
      StringBuilder camel = new StringBuilder();
      for (String word : clean.split("-")) {
        camel.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
      }
      clean = camel.toString();
      if (part.startsWith("{")) {
        clean = "By" + clean;
      }
      b.append(clean);
    }
    return b.toString();
  }

  /**
   * Adds the schema of a record (and the records it contains); returns its name. In a request only
   * {@link ApiField#required()} fields are required; in a response every field is, except those
   * Jackson leaves out when null ({@link JsonInclude} NON_NULL).
   */
  private String schemaFor(Class<?> type, boolean response) {
    String name = type.getSimpleName();
    Class<?> known = schemaTypes.get(name);
    if (known != null) {
      if (known != type) {
        throw new IllegalStateException("two schemas named " + name + ": " + known + ", " + type);
      }
      return name;
    }
    schemaTypes.put(name, type);
    schemas.put(name, Map.of());
    Map<String, Object> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    addProperties(type, response, properties, required);
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("additionalProperties", false);
    schema.put("properties", properties);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    schemas.put(name, schema);
    return name;
  }

  private void addProperties(
      Class<?> type, boolean response, Map<String, Object> properties, List<String> required) {
    JsonInclude classInclude = type.getAnnotation(JsonInclude.class);
    for (RecordComponent c : type.getRecordComponents()) {
      if (c.getAccessor().getAnnotation(JsonUnwrapped.class) != null) {
        addProperties(c.getType(), response, properties, required);
        continue;
      }
      JsonProperty renamed = c.getAccessor().getAnnotation(JsonProperty.class);
      String field = renamed == null ? c.getName() : renamed.value();
      ApiField api = c.getAnnotation(ApiField.class);
      properties.put(field, fieldSchema(c.getGenericType(), api, response));
      JsonInclude include = c.getAccessor().getAnnotation(JsonInclude.class);
      boolean omittedWhenNull =
          (include != null && include.value() == JsonInclude.Include.NON_NULL)
              || (include == null
                  && classInclude != null
                  && classInclude.value() == JsonInclude.Include.NON_NULL);
      if (response ? !omittedWhenNull : api != null && api.required()) {
        required.add(field);
      }
    }
  }

  private Map<String, Object> fieldSchema(Type type, ApiField api, boolean response) {
    Map<String, Object> schema = new LinkedHashMap<>(typeSchema(type, api, response));
    if (api != null) {
      if (!api.description().isEmpty()) {
        schema.put("description", api.description());
      }
      if (api.nullable()) {
        if (schema.containsKey("$ref")) {
          Map<String, Object> wrapped = new LinkedHashMap<>();
          wrapped.put("allOf", List.of(Map.of("$ref", schema.remove("$ref"))));
          wrapped.putAll(schema);
          schema = wrapped;
        }
        schema.put("nullable", true);
      }
    }
    return schema;
  }

  private Map<String, Object> typeSchema(Type type, ApiField api, boolean response) {
    Map<String, Object> s = new LinkedHashMap<>();
    if (type instanceof ParameterizedType p) {
      Class<?> raw = (Class<?>) p.getRawType();
      Type item = p.getActualTypeArguments()[List.class.isAssignableFrom(raw) ? 0 : 1];
      // Bounds of a list of strings (e.g. an enum) describe its items; sizes describe the list.
      ApiField itemApi = api != null && api.values().length > 0 ? api : null;
      if (List.class.isAssignableFrom(raw)) {
        s.put("type", "array");
        s.put("items", fieldSchema(item, itemApi, response));
        if (api != null && api.minItems() > 0) {
          s.put("minItems", api.minItems());
        }
        if (api != null && api.maxItems() > 0) {
          s.put("maxItems", api.maxItems());
        }
        return s;
      }
      if (Map.class.isAssignableFrom(raw)) {
        s.put("type", "object");
        s.put("additionalProperties", fieldSchema(item, null, response));
        if (api != null && api.maxItems() > 0) {
          s.put("maxProperties", api.maxItems());
        }
        return s;
      }
    }
    Class<?> c = (Class<?>) type;
    if (c == String.class) {
      s.put("type", "string");
      if (api != null) {
        if (api.values().length > 0) {
          s.put("enum", Arrays.asList(api.values()));
        }
        if (!api.pattern().isEmpty()) {
          s.put("pattern", api.pattern());
        }
        if (api.maxLength() > 0) {
          s.put("maxLength", api.maxLength());
        }
        if (!api.format().isEmpty()) {
          s.put("format", api.format());
        }
      }
    } else if (c == Integer.class || c == int.class || c == Long.class || c == long.class) {
      s.put("type", "integer");
      s.put("format", c == Long.class || c == long.class ? "int64" : "int32");
      bounds(s, api, true);
    } else if (c == Double.class || c == double.class) {
      s.put("type", "number");
      bounds(s, api, false);
    } else if (c == Boolean.class || c == boolean.class) {
      s.put("type", "boolean");
    } else if (c == Instant.class) {
      s.put("type", "string");
      s.put("format", "date-time");
      if (response) {
        s.put("pattern", INSTANT_PATTERN);
      }
    } else if (c == RawJson.class) {
      s.put("description", "any JSON value, exactly as the producer wrote it");
    } else if (c.isEnum()) {
      s.put("type", "string");
      s.put("enum", enumNames(c));
    } else if (c.isRecord()) {
      s.put("$ref", "#/components/schemas/" + schemaFor(c, response));
    } else {
      throw new IllegalStateException("no schema for " + c.getName());
    }
    return s;
  }

  /** Whole numbers are at least 0 unless the field says otherwise. */
  private static void bounds(Map<String, Object> s, ApiField api, boolean whole) {
    if (api == null) {
      if (whole) {
        s.put("minimum", 0);
      }
      return;
    }
    if (api.bounded()) {
      s.put("minimum", api.min());
    }
    if (api.max() != Long.MAX_VALUE) {
      s.put("maximum", api.max());
    }
  }

  private static List<String> enumNames(Class<?> type) {
    return Arrays.stream(type.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList();
  }

  private static Map<String, Object> string() {
    return Map.of("type", "string");
  }

  private static Map<String, Object> ref(String name) {
    return Map.of("$ref", "#/components/schemas/" + name);
  }
}
