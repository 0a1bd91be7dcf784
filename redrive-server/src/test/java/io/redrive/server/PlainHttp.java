package io.redrive.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One call as a client in another language makes it: java.net.http and JSON only, no client of
 * ours. Each answer is still checked against {@code /openapi.json} ({@link ResponseSchemas}).
 */
final class PlainHttp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private PlainHttp() {}

  /** The answer's JSON (null for none); a status of 300 or more is an IOException. */
  static JsonNode call(String base, String method, String path, String body) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .timeout(Duration.ofSeconds(20))
            .build();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    ResponseSchemas.check(
        base,
        method,
        path,
        response.statusCode(),
        response.headers().firstValue("Content-Type").orElse(""),
        response.body());
    if (response.statusCode() >= 300) {
      throw new IOException(
          method + " " + path + " -> " + response.statusCode() + " " + response.body());
    }
    return response.body().isEmpty() ? null : JSON.readTree(response.body());
  }
}
