package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(StoreKind.class)
class ServiceEndpointsTest extends ApiTestBase {

  @Test
  void health_ok() {
    Response r = api.get("/health");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.get("status").asText()).isEqualTo("ok");
  }

  @Test
  void ready_whenStoreAnswers() {
    Response r = api.get("/ready");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.get("status").asText()).isEqualTo("ready");
  }

  @Test
  void ready_whenStoreFails_is503WithRetryAfter() {
    StoreKind.TestDb db = kind.newDatabase();
    io.redrive.store.Store store = db.open();
    RedriveServer own = RedriveServer.start(TestServers.config(), TestServers.ALLOW_ALL, store);
    try {
      HttpApiClient client = new HttpApiClient(own.baseUrl());
      assertThat(client.get("/ready").status()).isEqualTo(200);
      store.close(); // every store call fails from now on
      RawHttp.Answer r = RawHttp.send(own.port(), "GET /ready HTTP/1.1\r\nHost: localhost", null);
      assertThat(r.status()).as(r.toString()).isEqualTo(503);
      assertThat(r.body()).contains("\"unavailable\"");
      assertThat(r.header("Retry-After")).as(r.toString()).isEqualTo("1");
    } finally {
      own.stop();
      db.drop().run();
    }
  }

  @Test
  void metrics_prometheusText_withHttpAndDepthMeters() {
    String q = queue("metrics");
    enqueue(q, "t", 1);
    api.get("/v1/queues/" + q);
    Response r = api.get("/metrics");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.contentType()).startsWith("text/plain");
    assertThat(r.body()).contains("redrive_http_requests_seconds_count");
    assertThat(r.body()).contains("route=\"/v1/queues/{name}\"");
    assertThat(r.body()).contains("# TYPE redrive_queue_depth gauge");
  }

  @Test
  void openapi_listsEveryRouteWithMethod() {
    Response r = api.get("/openapi.json");
    assertThat(r.status()).isEqualTo(200);
    JsonNode doc = r.json();
    assertThat(doc.get("openapi").asText()).startsWith("3.0");
    assertThat(server.routes()).hasSize(31);
    for (String route : server.routes()) {
      String method = route.substring(0, route.indexOf(' ')).toLowerCase(Locale.ROOT);
      String path = route.substring(route.indexOf(' ') + 1);
      JsonNode op = doc.get("paths").path(path).path(method);
      assertThat(op.isObject()).as(route).isTrue();
      assertThat(op.get("summary").asText()).as(route).isNotBlank();
      assertThat(op.get("responses").size()).as(route).isGreaterThanOrEqualTo(2);
    }
    int operations = 0;
    for (JsonNode item : doc.get("paths")) {
      operations += item.size();
    }
    assertThat(operations).isEqualTo(server.routes().size());
    JsonNode lease = doc.get("components").get("schemas").get("LeaseBody");
    assertThat(lease.get("additionalProperties").asBoolean()).isFalse();
    assertThat(lease.get("properties").has("wait")).isTrue();
  }

  @Test
  void unknownEndpoint_notFoundJson() {
    Response r = api.get("/v1/nothing-here");
    ApiTestBase.assertError(r, 404, "NOT_FOUND");
  }

  @Test
  void wrongMethod_methodNotAllowedJson() {
    Response r = api.send("PUT", "/v1/queues", "{}");
    ApiTestBase.assertError(r, 405, "METHOD_NOT_ALLOWED");
  }
}
