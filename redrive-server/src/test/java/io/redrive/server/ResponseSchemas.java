package io.redrive.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Checks every answer the server tests see against the schema {@code /openapi.json} documents for
 * its route and status: a small checker of the JSON Schema subset the document uses ({@code $ref},
 * {@code allOf}, {@code nullable}, {@code type}, {@code enum}, {@code pattern}, {@code maxLength},
 * {@code minimum}/{@code maximum}, {@code properties}/{@code required}/{@code
 * additionalProperties}, {@code items}, {@code minItems}/{@code maxItems}, {@code maxProperties},
 * {@code format: date-time}). Nothing is generated: the test clients call {@link #check} on each
 * response, and a mismatch fails the test that made the call.
 */
final class ResponseSchemas {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Map<String, ResponseSchemas> BY_SERVER = new ConcurrentHashMap<>();

  /** How many answers were checked in this JVM (so a test can see the hook is live). */
  static final AtomicLong CHECKED = new AtomicLong();

  private static final JsonNode ERROR_RESPONSE =
      JSON.createObjectNode()
          .set(
              "content",
              JSON.createObjectNode()
                  .set(
                      "application/json",
                      JSON.createObjectNode()
                          .set(
                              "schema",
                              JSON.createObjectNode().put("$ref", "#/components/schemas/Error"))));

  private final JsonNode doc;

  ResponseSchemas(JsonNode doc) {
    this.doc = doc;
  }

  /** The checker of the server at {@code baseUrl}, reading its document once. */
  static ResponseSchemas of(String baseUrl) {
    return BY_SERVER.computeIfAbsent(baseUrl, ResponseSchemas::fetch);
  }

  private static ResponseSchemas fetch(String baseUrl) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(baseUrl + "/openapi.json")).build(),
              HttpResponse.BodyHandlers.ofString());
      return new ResponseSchemas(JSON.readTree(r.body()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /openapi.json of " + baseUrl, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Checks one answer; throws {@link AssertionError} naming every mismatch. */
  static void check(
      String baseUrl, String method, String path, int status, String contentType, String body) {
    of(baseUrl).verify(method, path, status, contentType, body);
  }

  void verify(String method, String path, int status, String contentType, String body) {
    List<String> errors = errors(method, path, status, contentType, body);
    CHECKED.incrementAndGet();
    if (!errors.isEmpty()) {
      // Also printed: a call made on a pool thread may have its AssertionError swallowed.
      System.err.println(
          "UNDOCUMENTED ANSWER " + method + " " + path + " " + status + ": " + errors);
      throw new AssertionError(
          method
              + " "
              + path
              + " answered "
              + status
              + " not as documented in /openapi.json: "
              + String.join("; ", errors)
              + "\nbody: "
              + body);
    }
  }

  List<String> errors(String method, String path, int status, String contentType, String body) {
    List<String> errors = new ArrayList<>();
    JsonNode operation = operation(method.toLowerCase(java.util.Locale.ROOT), path);
    JsonNode response;
    if (operation == null) {
      if (status < 400) {
        errors.add("no documented operation for " + method + " " + path);
        return errors;
      }
      response = ERROR_RESPONSE; // no such endpoint: still the one error shape
    } else {
      response = operation.path("responses").path(String.valueOf(status));
      if (response.isMissingNode()) {
        if (status < 400) {
          errors.add("status " + status + " is not documented");
          return errors;
        }
        response = operation.path("responses").path("default");
      }
    }
    JsonNode content = response.path("content");
    if (content.isMissingNode()) {
      if (body != null && !body.isEmpty()) {
        errors.add("documented without a body, answered one");
      }
      return errors;
    }
    String type = content.fieldNames().next();
    if (contentType == null || !contentType.startsWith(type)) {
      errors.add("content type " + contentType + ", documented " + type);
      return errors;
    }
    if (!type.equals("application/json")) {
      return errors;
    }
    JsonNode value;
    try {
      value = JSON.readTree(body);
    } catch (IOException e) {
      errors.add("body is not JSON: " + e.getMessage());
      return errors;
    }
    validate(value, content.path(type).path("schema"), "$", errors);
    return errors;
  }

  /** The operation whose path template matches, preferring the one with fewest placeholders. */
  private JsonNode operation(String method, String path) {
    String plain = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    if (plain.length() > 1 && plain.endsWith("/")) {
      plain = plain.substring(0, plain.length() - 1);
    }
    JsonNode best = null;
    int bestParams = Integer.MAX_VALUE;
    Iterator<Map.Entry<String, JsonNode>> it = doc.path("paths").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String template = e.getKey();
      String regex = "\\Q" + template.replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q") + "\\E";
      if (!e.getValue().has(method) || !plain.matches(regex)) {
        continue;
      }
      int params = template.split("\\{", -1).length - 1;
      if (params < bestParams) {
        best = e.getValue().get(method);
        bestParams = params;
      }
    }
    return best;
  }

  void validate(JsonNode value, JsonNode schema, String at, List<String> errors) {
    if (schema.has("$ref")) {
      String ref = schema.get("$ref").asText();
      validate(value, doc.at(ref.substring(1)), at, errors);
      return;
    }
    if (value.isNull()) {
      if (!schema.path("nullable").asBoolean(false)) {
        errors.add(at + " is null, documented as not nullable");
      }
      return;
    }
    for (JsonNode part : schema.path("allOf")) {
      validate(value, part, at, errors);
    }
    String type = schema.path("type").asText("");
    switch (type) {
      case "string" -> {
        if (!value.isTextual()) {
          errors.add(at + " is " + value.getNodeType() + ", documented string");
          return;
        }
        string(value.asText(), schema, at, errors);
      }
      case "integer" -> {
        if (!value.isIntegralNumber()) {
          errors.add(at + " is " + value + ", documented integer");
          return;
        }
        number(value, schema, at, errors);
      }
      case "number" -> {
        if (!value.isNumber()) {
          errors.add(at + " is " + value + ", documented number");
          return;
        }
        number(value, schema, at, errors);
      }
      case "boolean" -> {
        if (!value.isBoolean()) {
          errors.add(at + " is " + value + ", documented boolean");
        }
      }
      case "array" -> {
        if (!value.isArray()) {
          errors.add(at + " is " + value.getNodeType() + ", documented array");
          return;
        }
        if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
          errors.add(at + " has fewer than " + schema.get("minItems") + " items");
        }
        if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
          errors.add(at + " has more than " + schema.get("maxItems") + " items");
        }
        for (int i = 0; i < value.size(); i++) {
          validate(value.get(i), schema.path("items"), at + "[" + i + "]", errors);
        }
      }
      case "object" -> object(value, schema, at, errors);
      case "" -> {
        // no type: any value (the payload)
      }
      default -> errors.add(at + ": the checker does not know type " + type);
    }
  }

  private void string(String text, JsonNode schema, String at, List<String> errors) {
    if (schema.has("enum")) {
      boolean found = false;
      for (JsonNode v : schema.get("enum")) {
        found |= v.asText().equals(text);
      }
      if (!found) {
        errors.add(at + " is \"" + text + "\", not one of " + schema.get("enum"));
      }
    }
    if (schema.has("pattern")
        && !Pattern.compile(schema.get("pattern").asText()).matcher(text).find()) {
      errors.add(at + " is \"" + text + "\", not matching " + schema.get("pattern").asText());
    }
    if (schema.has("maxLength") && text.length() > schema.get("maxLength").asInt()) {
      errors.add(at + " is longer than " + schema.get("maxLength"));
    }
    if (schema.path("format").asText("").equals("date-time")) {
      try {
        Instant.parse(text);
      } catch (DateTimeParseException e) {
        errors.add(at + " is \"" + text + "\", not a date-time");
      }
    }
  }

  private static void number(JsonNode value, JsonNode schema, String at, List<String> errors) {
    if (schema.has("minimum")
        && value.decimalValue().compareTo(schema.get("minimum").decimalValue()) < 0) {
      errors.add(at + " is " + value + ", below the minimum " + schema.get("minimum"));
    }
    if (schema.has("maximum")
        && value.decimalValue().compareTo(schema.get("maximum").decimalValue()) > 0) {
      errors.add(at + " is " + value + ", above the maximum " + schema.get("maximum"));
    }
  }

  private void object(JsonNode value, JsonNode schema, String at, List<String> errors) {
    if (!value.isObject()) {
      errors.add(at + " is " + value.getNodeType() + ", documented object");
      return;
    }
    JsonNode properties = schema.path("properties");
    for (JsonNode name : schema.path("required")) {
      if (!value.has(name.asText())) {
        errors.add(at + "." + name.asText() + " is missing (documented as required)");
      }
    }
    if (schema.has("maxProperties") && value.size() > schema.get("maxProperties").asInt()) {
      errors.add(at + " has more than " + schema.get("maxProperties") + " properties");
    }
    JsonNode additional = schema.path("additionalProperties");
    Iterator<Map.Entry<String, JsonNode>> fields = value.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      String where = at + "." + f.getKey();
      if (properties.has(f.getKey())) {
        validate(f.getValue(), properties.get(f.getKey()), where, errors);
      } else if (additional.isObject()) {
        validate(f.getValue(), additional, where, errors);
      } else if (additional.isBoolean() && !additional.asBoolean()) {
        errors.add(where + " is not documented");
      }
    }
  }
}
