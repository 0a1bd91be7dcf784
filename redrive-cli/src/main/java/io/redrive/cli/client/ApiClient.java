package io.redrive.cli.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.time.DurationText;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of one Redrive server's HTTP API. Bodies are Jackson trees so the CLI prints what the
 * server sent without a second model of it. Thread-safe.
 *
 * <p>Every failure is a {@link CliException}: an error answer carries the server's status, code and
 * message; a refused connection says which server could not be reached. The token is sent as {@code
 * Authorization: Bearer} and appears in no message.
 */
public final class ApiClient {
  /** The server the CLI talks to when nothing else is said. */
  public static final String DEFAULT_SERVER = "http://127.0.0.1:7070";

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final URI server;
  private final String token;
  private final Duration timeout;
  private final HttpClient http;

  private ApiClient(URI server, String token, Duration timeout) {
    this.server = server;
    this.token = token == null || token.isBlank() ? null : token.trim();
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(
                timeout.compareTo(Duration.ofSeconds(5)) < 0 ? timeout : Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /**
   * A client of the server at {@code server} ({@code http://host:port}, a trailing slash allowed).
   *
   * @param token the API key, or null/blank for none
   * @param timeout how long one request may take
   * @throws CliException (usage) when {@code server} is not an http(s) URL
   */
  public static ApiClient connect(String server, String token, Duration timeout) {
    return new ApiClient(parseServer(server), token, timeout);
  }

  /** The server's base URL, without a trailing slash. */
  public String server() {
    return server.toString();
  }

  /** The shared JSON mapper (plain Jackson, no extra modules). */
  public static ObjectMapper json() {
    return JSON;
  }

  /** A new empty JSON object to build a request body. */
  /**
   * The JSON value an option's text holds; text that is not JSON is a usage error naming the
   * option, with {@code examples} of how to quote it.
   */
  public static JsonNode jsonOption(String option, String text, String examples) {
    try {
      return JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw CliException.usage(
          option
              + ": not JSON ("
              + e.getOriginalMessage()
              + "); quote text as JSON, e.g. "
              + examples);
    }
  }

  public static ObjectNode object() {
    return JSON.createObjectNode();
  }

  public JsonNode get(String path) {
    return send("GET", path, null);
  }

  public JsonNode get(String path, Query query) {
    return send("GET", path + query.render(), null);
  }

  public JsonNode post(String path, JsonNode body) {
    return send("POST", path, body);
  }

  /**
   * POST returning the answer's text as the server wrote it (for values that must not pass through
   * a tree, such as payloads whose numbers must keep their form); errors as for {@link #post}.
   */
  public String postForText(String path, JsonNode body) {
    HttpResponse<String> response = exchange("POST", path, body);
    answer("POST", path, response);
    return response.body() == null ? "" : response.body();
  }

  public JsonNode put(String path, JsonNode body) {
    return send("PUT", path, body);
  }

  public JsonNode patch(String path, JsonNode body) {
    return send("PATCH", path, body);
  }

  /** DELETE; returns an empty object for 204. */
  public JsonNode delete(String path) {
    return send("DELETE", path, null);
  }

  /** {@code value} encoded as one path segment. */
  public static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private JsonNode send(String method, String path, JsonNode body) {
    return answer(method, path, exchange(method, path, body));
  }

  private HttpResponse<String> exchange(String method, String path, JsonNode body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server + path))
            .timeout(timeout)
            .header("Accept", "application/json")
            // the server refuses a state-changing call without a body unless it carries this
            // (a web page cannot send it cross-site); harmless on the others
            .header("X-Redrive-Request", "1");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(write(body), StandardCharsets.UTF_8));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> response;
    try {
      response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpConnectTimeoutException | ConnectException e) {
      throw unreachable(e);
    } catch (HttpTimeoutException e) {
      throw new CliException(
          0,
          CliException.TIMEOUT,
          "the Redrive server at "
              + server
              + " did not answer within "
              + DurationText.format(timeout)
              + " (raise --timeout?)",
          e);
    } catch (IOException | UnresolvedAddressException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException(0, "INTERRUPTED", "interrupted while waiting for the server", e);
    }
    return response;
  }

  private CliException unreachable(Exception e) {
    return new CliException(
        0,
        CliException.UNREACHABLE,
        "cannot reach the Redrive server at "
            + server
            + ": is `redrive server` running? (set --server or REDRIVE_SERVER)",
        e);
  }

  private JsonNode answer(String method, String path, HttpResponse<String> response) {
    int status = response.statusCode();
    String text = response.body() == null ? "" : response.body();
    if (status >= 200 && status < 300) {
      if (text.isBlank()) {
        return object();
      }
      try {
        return JSON.readTree(text);
      } catch (JsonProcessingException e) {
        throw new CliException(
            status, "BAD_RESPONSE", method + " " + path + ": the server's answer is not JSON", e);
      }
    }
    JsonNode error = null;
    try {
      error = text.isBlank() ? null : JSON.readTree(text).get("error");
    } catch (JsonProcessingException e) {
      // not our error format (a proxy?): fall through to the generic message
    }
    if (error != null && error.hasNonNull("code")) {
      return failWith(status, error.get("code").asText(), error.path("message").asText(""));
    }
    String excerpt = text.length() > 200 ? text.substring(0, 200) + "..." : text;
    return failWith(
        status,
        "HTTP_" + status,
        method + " " + path + " answered " + status + " " + excerpt.strip());
  }

  private static JsonNode failWith(int status, String code, String message) {
    throw new CliException(status, code, message.isBlank() ? code : message);
  }

  private static String write(JsonNode body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a JSON tree", e);
    }
  }

  private static URI parseServer(String text) {
    String value = text == null || text.isBlank() ? DEFAULT_SERVER : text.trim();
    while (value.endsWith("/")) {
      value = value.substring(0, value.length() - 1);
    }
    if (!value.contains("://")) {
      value = "http://" + value;
    }
    try {
      URI uri = new URI(value);
      if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          || uri.getHost() == null) {
        throw CliException.usage("--server: expected http://host:port, was \"" + text + "\"");
      }
      return uri;
    } catch (java.net.URISyntaxException e) {
      throw CliException.usage("--server: expected http://host:port, was \"" + text + "\"");
    }
  }

  /** Query parameters in order; repeated names allowed, null values left out. */
  public static final class Query {
    private final List<String> parts = new ArrayList<>();

    public static Query of() {
      return new Query();
    }

    public Query add(String name, Object value) {
      if (value != null && !value.toString().isEmpty()) {
        parts.add(name + "=" + URLEncoder.encode(value.toString(), StandardCharsets.UTF_8));
      }
      return this;
    }

    public Query addAll(String name, Iterable<?> values) {
      if (values != null) {
        values.forEach(v -> add(name, v));
      }
      return this;
    }

    String render() {
      return parts.isEmpty() ? "" : "?" + String.join("&", parts);
    }
  }
}
