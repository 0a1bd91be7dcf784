package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;

/**
 * Base of the API contract tests: each concrete class is a {@code @ParameterizedClass} over {@link
 * StoreKind}, so every contract runs on SQLite and on PostgreSQL against the shared test server.
 */
abstract class ApiTestBase {
  @Parameter StoreKind kind;

  RedriveServer server;
  HttpApiClient api;

  @BeforeEach
  void connect() {
    server = TestServers.shared(kind);
    api = new HttpApiClient(server.baseUrl());
  }

  /** Creates a queue with default policy plus {@code fields}; returns its name. */
  String queue(String prefix, Object... fields) {
    String name = TestServers.unique(prefix);
    Map<String, Object> body = new java.util.LinkedHashMap<>();
    body.put("name", name);
    for (int i = 0; i < fields.length; i += 2) {
      body.put((String) fields[i], fields[i + 1]);
    }
    Response r = api.post("/v1/queues", HttpApiClient.json(body));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return name;
  }

  /** Enqueues messages of {@code type} with the given payloads; returns their ids. */
  List<String> enqueue(String queue, String type, Object... payloads) {
    List<Object> messages = new ArrayList<>();
    for (Object p : payloads) {
      messages.add(Map.of("type", type, "payload", p));
    }
    Response r =
        api.post(
            "/v1/queues/" + queue + "/messages", HttpApiClient.json(Map.of("messages", messages)));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    List<String> ids = new ArrayList<>();
    r.get("results").forEach(n -> ids.add(n.get("id").asText()));
    return ids;
  }

  /** Leases up to {@code max} messages without waiting; returns the leased messages. */
  List<JsonNode> lease(String queue, int max) {
    Response r =
        api.post("/v1/queues/" + queue + "/lease", "{\"worker\":\"t\",\"max\":" + max + "}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    r.get("messages").forEach(out::add);
    return out;
  }

  JsonNode stats(String queue) {
    Response r = api.get("/v1/queues/" + queue + "/stats");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.json();
  }

  static void assertError(Response r, int status, String code) {
    assertThat(r.status()).as(r.toString()).isEqualTo(status);
    assertThat(r.code()).as(r.toString()).isEqualTo(code);
    assertThat(r.json().path("error").path("message").asText()).isNotBlank();
  }
}
