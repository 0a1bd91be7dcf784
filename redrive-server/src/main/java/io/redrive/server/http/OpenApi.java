package io.redrive.server.http;

import io.redrive.failure.FailureReason;
import io.redrive.message.MessageQuery;
import java.util.ArrayList;
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
 * This class writes the paths, their operations and error answers; {@link OpenApiSchemas} the
 * schemas of the records they name.
 */
final class OpenApi {
  private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z]+)}");

  private final OpenApiSchemas schemas = new OpenApiSchemas();

  private OpenApi() {}

  static Map<String, Object> document(List<Route> routes, String version) {
    return new OpenApi().build(routes, version);
  }

  private Map<String, Object> build(List<Route> routes, String version) {
    schemas.add(Responses.Error.class, true);
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
    components.put("schemas", schemas.byName());
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
      String name = schemas.add(r.requestBody(), false);
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
      errors.put(429, List.of("TOO_MANY_WRONG_KEYS"));
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
          "TOO_MANY_WRONG_KEYS",
              "too many wrong keys from this address lately: wait Retry-After seconds",
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
      String name = schemas.add(body, true);
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
        return Map.of("type", "string", "enum", OpenApiSchemas.enumNames(FailureReason.class));
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

  private static Map<String, Object> string() {
    return Map.of("type", "string");
  }

  private static Map<String, Object> ref(String name) {
    return Map.of("$ref", "#/components/schemas/" + name);
  }
}
