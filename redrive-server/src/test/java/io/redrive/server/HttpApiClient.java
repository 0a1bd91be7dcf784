package io.redrive.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Plain java.net.http calls to a running server, with JSON answers parsed for assertions. Every
 * answer is checked against the schema {@code /openapi.json} documents for it ({@link
 * ResponseSchemas}).
 */
final class HttpApiClient {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String baseUrl;
  private final String authorization;

  HttpApiClient(String baseUrl) {
    this(baseUrl, null);
  }

  HttpApiClient(String baseUrl, String authorization) {
    this.baseUrl = baseUrl;
    this.authorization = authorization;
  }

  HttpApiClient withKey(String key) {
    return new HttpApiClient(baseUrl, key == null ? null : "Bearer " + key);
  }

  /** A response: status, raw body and the body parsed as JSON (null when not JSON). */
  record Response(int status, String body, JsonNode json, String contentType) {
    String code() {
      return json == null ? null : json.path("error").path("code").asText(null);
    }

    JsonNode get(String field) {
      return json.get(field);
    }

    @Override
    public String toString() {
      return status + " " + body;
    }
  }

  Response get(String path) {
    return send("GET", path, (String) null);
  }

  Response post(String path, String body) {
    return send("POST", path, body);
  }

  Response post(String path) {
    return send("POST", path, (String) null);
  }

  Response patch(String path, String body) {
    return send("PATCH", path, body);
  }

  Response delete(String path) {
    return send("DELETE", path, (String) null);
  }

  Response send(String method, String path, String body) {
    return sendBytes(
        method, path, body == null ? null : body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** A POST of {@code body} with extra request {@code headers} (e.g. a client's traceparent). */
  Response post(String path, String body, Map<String, String> headers) {
    return sendBytes("POST", path, body.getBytes(java.nio.charset.StandardCharsets.UTF_8), headers);
  }

  Response sendBytes(String method, String path, byte[] body) {
    return sendBytes(method, path, body, Map.of());
  }

  private Response sendBytes(String method, String path, byte[] body, Map<String, String> headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    } else if (!method.equals("GET")) {
      b.header("X-Redrive-Request", "1");
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    headers.forEach(b::header);
    try {
      HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json = null;
      String type = r.headers().firstValue("Content-Type").orElse("");
      if (type.startsWith("application/json") && !r.body().isEmpty()) {
        json = JSON.readTree(r.body());
      }
      ResponseSchemas.check(baseUrl, method, path, r.statusCode(), type, r.body());
      return new Response(r.statusCode(), r.body(), json, type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Builds JSON text from a Java value (maps, lists, strings, numbers). */
  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
