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
      assertThat(r.body()).contains("\"unavailable\"").contains("cannot be reached");
      assertThat(r.body())
          .as("no driver or pool words in a public answer")
          .doesNotContain("closed");
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

  /**
   * Every route's operation lists the request guard's answers, each provoked here for real (a
   * foreign Host everywhere; a foreign Origin and a text/plain body on state-changing routes), and
   * on API routes the store's 503s with Retry-After; a route missing one of them fails.
   */
  @Test
  void openapi_listsTheGuardAndStoreErrorsOfEveryRoute() {
    JsonNode doc = api.get("/openapi.json").json();
    for (String route : server.routes()) {
      String method = route.substring(0, route.indexOf(' '));
      String path = route.substring(route.indexOf(' ') + 1);
      JsonNode responses =
          doc.get("paths").path(path).path(method.toLowerCase(Locale.ROOT)).path("responses");
      String concrete = method + " " + path.replaceAll("\\{[^}]+}", "x") + " HTTP/1.1\r\n";
      assertDocumented(
          route, responses, RawHttp.send(server.port(), concrete + "Host: evil.example", null));
      boolean changesState = !method.equals("GET");
      if (changesState) {
        assertDocumented(
            route,
            responses,
            RawHttp.send(
                server.port(),
                concrete
                    + "Host: localhost\r\nContent-Type: application/json\r\n"
                    + "Origin: https://evil.example",
                "{}"));
        assertDocumented(
            route,
            responses,
            RawHttp.send(
                server.port(), concrete + "Host: localhost\r\nContent-Type: text/plain", "{}"));
      } else {
        assertThat(responses.has("415")).as(route).isFalse();
        assertThat(responses.path("403").path("x-redrive-codes").toString())
            .as(route)
            .doesNotContain("ORIGIN_NOT_ALLOWED");
      }
      if (path.startsWith("/v1/") || path.equals("/ready")) {
        JsonNode unavailable = responses.path("503");
        assertThat(unavailable.path("headers").has("Retry-After")).as(route).isTrue();
        if (path.startsWith("/v1/")) {
          assertThat(unavailable.path("x-redrive-codes").toString())
              .as(route)
              .contains("STORE_UNAVAILABLE");
          if (changesState) {
            assertThat(unavailable.path("x-redrive-codes").toString())
                .as(route)
                .contains("COMMIT_UNKNOWN");
          }
        }
      }
    }
  }

  /** The answer's status is listed for the route, with the answer's error code. */
  private static void assertDocumented(String route, JsonNode responses, RawHttp.Answer answer) {
    java.util.regex.Matcher code =
        java.util.regex.Pattern.compile("\"code\"\\s*:\\s*\"([A-Z_]+)\"").matcher(answer.body());
    assertThat(code.find()).as(route + ": " + answer).isTrue();
    JsonNode documented = responses.path(String.valueOf(answer.status()));
    assertThat(documented.path("x-redrive-codes").toString())
        .as(route + " documents " + answer.status() + " " + code.group(1))
        .contains("\"" + code.group(1) + "\"");
    assertThat(
            documented
                .path("content")
                .path("application/json")
                .path("schema")
                .path("$ref")
                .asText())
        .as(route)
        .isEqualTo("#/components/schemas/Error");
  }

  @Test
  void openapi_listsEveryRouteWithMethod() {
    Response r = api.get("/openapi.json");
    assertThat(r.status()).isEqualTo(200);
    JsonNode doc = r.json();
    assertThat(doc.get("openapi").asText()).startsWith("3.0");
    // 50, and the two deprecated /activity aliases
    assertThat(server.routes()).hasSize(68);
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
