package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The API describes itself (issue 9, section 4): typed response schemas with real bounds in {@code
 * /openapi.json}, payloads returned byte for byte, times to the millisecond, a PATCH that clears
 * the dead-letter queue; plus "retry now" over HTTP.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ApiSelfDescriptionTest extends ApiTestBase {
  private static final Pattern MILLIS =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");

  private JsonNode doc() {
    Response r = api.get("/openapi.json");
    assertThat(r.status()).isEqualTo(200);
    return r.json();
  }

  private static JsonNode schema(JsonNode doc, String name) {
    JsonNode s = doc.path("components").path("schemas").path(name);
    assertThat(s.isObject()).as("schema %s", name).isTrue();
    return s;
  }

  @Test
  void openapi_everyJsonAnswerIsATypedSchema() {
    JsonNode doc = doc();
    int typed = 0;
    for (JsonNode item : doc.get("paths")) {
      for (JsonNode op : item) {
        for (Map.Entry<String, JsonNode> e : iterable(op.get("responses"))) {
          JsonNode json = e.getValue().path("content").path("application/json").path("schema");
          if (json.isMissingNode() || op.get("operationId").asText().equals("getOpenapijson")) {
            continue;
          }
          String ref = json.path("$ref").asText();
          assertThat(ref).as("%s %s", op.get("operationId"), e.getKey()).startsWith("#/");
          JsonNode target = doc.at(ref.substring(1));
          assertThat(target.path("properties").size()).as(ref).isPositive();
          assertThat(target.path("additionalProperties").asBoolean(true)).as(ref).isFalse();
          typed++;
        }
      }
    }
    assertThat(typed).isGreaterThan(29);
    JsonNode message = schema(doc, "Message");
    assertThat(message.get("required").toString()).contains("\"id\"", "\"payload\"");
    assertThat(message.get("required").toString()).doesNotContain("\"history\"");
    assertThat(message.at("/properties/stream/nullable").asBoolean()).isTrue();
    assertThat(message.at("/properties/id/nullable").asBoolean()).isFalse();
    assertThat(message.at("/properties/enqueuedAt/pattern").asText()).contains("\\.\\d{3}Z");
    assertThat(message.at("/properties/state/enum").toString()).contains("SCHEDULED", "DEAD");
    JsonNode ready = doc.at("/paths/~1ready/get/responses/503/content/application~1json/schema");
    assertThat(ready.get("$ref").asText()).endsWith("/Unavailable");
  }

  @Test
  void openapi_optionalBodiesAndRealBounds() {
    JsonNode doc = doc();
    JsonNode paths = doc.get("paths");
    assertThat(paths.at("/~1v1~1queues~1{name}~1lease/post/requestBody/required").asBoolean())
        .isFalse();
    assertThat(paths.at("/~1v1~1leases~1{token}~1complete/post/requestBody/required").asBoolean())
        .isFalse();
    assertThat(paths.at("/~1v1~1leases~1{token}~1fail/post/requestBody/required").asBoolean())
        .isTrue();
    assertThat(paths.at("/~1v1~1queues/post/requestBody/required").asBoolean()).isTrue();

    JsonNode lease = schema(doc, "LeaseBody");
    assertThat(lease.has("required")).isFalse();
    assertThat(lease.at("/properties/max/minimum").asInt()).isEqualTo(1);
    assertThat(lease.at("/properties/max/maximum").asInt()).isEqualTo(1000);
    assertThat(lease.at("/properties/types/type").asText()).isEqualTo("array");
    assertThat(lease.at("/properties/types/maxItems").asInt()).isEqualTo(1000);
    assertThat(lease.at("/properties/types/description").asText()).contains("only messages");
    JsonNode create = schema(doc, "CreateQueueBody");
    assertThat(create.get("required").toString()).isEqualTo("[\"name\"]");
    assertThat(create.at("/properties/maxAttempts/minimum").asInt()).isEqualTo(1);
    assertThat(create.at("/properties/maxAttempts/maximum").asInt()).isEqualTo(10_000);
    assertThat(create.at("/properties/name/pattern").asText()).isEqualTo("^[A-Za-z0-9._-]{1,200}$");
    assertThat(create.at("/properties/name/maxLength").asInt()).isEqualTo(200);
    assertThat(create.at("/properties/deadLetter/enum").toString()).contains("move");
    assertThat(schema(doc, "NewMessageBody").get("required").toString()).isEqualTo("[\"type\"]");
    assertThat(schema(doc, "EnqueueBody").at("/properties/messages/maxItems").asInt())
        .isEqualTo(1000);
    JsonNode update = schema(doc, "UpdateQueueBody");
    assertThat(update.has("required")).isFalse();
    assertThat(update.at("/properties/deadLetterQueue/nullable").asBoolean()).isTrue();
    assertThat(update.at("/properties/expireAfter/nullable").asBoolean()).isTrue();
    JsonNode limit =
        paths.at("/~1v1~1queues~1{name}~1messages/get/parameters").findValues("schema").stream()
            .filter(s -> s.path("type").asText().equals("integer"))
            .findFirst()
            .orElseThrow();
    assertThat(limit.get("maximum").asInt()).isEqualTo(1000);
  }

  @Test
  void schemaChecker_refusesAnswersThatDoNotMatch() {
    api.get("/health");
    assertThat(ResponseSchemas.CHECKED.get()).as("the client hook checks answers").isPositive();
    ResponseSchemas checker = ResponseSchemas.of(server.baseUrl());
    String good = api.get("/v1/queues/" + queue("chk")).body();
    assertThat(checker.errors("GET", "/v1/queues/x", 200, "application/json", good)).isEmpty();

    assertThat(checker.errors("GET", "/v1/queues/x", 200, "application/json", "{\"name\":1}"))
        .anySatisfy(e -> assertThat(e).contains("$.name is NUMBER"))
        .anySatisfy(e -> assertThat(e).contains("$.maxAttempts is missing"));
    assertThat(
            checker.errors(
                "GET",
                "/v1/queues/x",
                200,
                "application/json",
                good.replaceFirst(
                    "\"createdAt\":\"[^\"]+\"", "\"createdAt\":\"2030-01-01T00:00:00.123456Z\"")))
        .singleElement()
        .satisfies(e -> assertThat(e).contains("$.createdAt"));
    assertThat(
            checker.errors(
                "GET", "/v1/queues/x", 200, "application/json", good.replace("{", "{\"extra\":1,")))
        .isNotEmpty();
    assertThat(
            checker.errors(
                "GET",
                "/v1/queues/x",
                200,
                "application/json",
                good.replaceFirst("\"name\":\"[^\"]+\"", "\"name\":null")))
        .singleElement()
        .satisfies(e -> assertThat(e).contains("$.name is null"));
    assertThat(checker.errors("GET", "/v1/queues/x", 418, "application/json", good)).isNotEmpty();
    assertThat(checker.errors("GET", "/v1/queues/x", 404, "text/html", "<html/>")).isNotEmpty();
  }

  @Test
  void payload_returnedByteForByte_inGetListAndLease() {
    String q = queue("raw");
    String[] payloads = {
      "{\"a\":1.10,\"b\":1e2,\"c\":[1.0]}",
      "{ \"z\" : \"\\u00e9\\n\" ,\"a\":-0.0 , \"big\":123456789012345678901234567890 }",
      "1e2",
      "\"t\\\"ext\"",
      "[true,false,null]",
      "-1.500E-3"
    };
    StringBuilder body = new StringBuilder("{\"messages\":[");
    for (int i = 0; i < payloads.length; i++) {
      body.append(i == 0 ? "" : ",")
          .append("{\"type\":\"t\",\"payload\":")
          .append(payloads[i])
          .append("}");
    }
    body.append("]}");
    Response r = api.post("/v1/queues/" + q + "/messages", body.toString());
    assertThat(r.status()).as(r.toString()).isEqualTo(201);

    for (int i = 0; i < payloads.length; i++) {
      String id = r.get("results").get(i).get("id").asText();
      Response got = api.get("/v1/messages/" + id);
      assertThat(got.body()).contains("\"payload\":" + payloads[i] + ",");
    }
    String listed = api.get("/v1/queues/" + q + "/messages").body();
    Response leased = api.post("/v1/queues/" + q + "/lease", "{\"max\":10}");
    for (String p : payloads) {
      assertThat(listed).contains("\"payload\":" + p + ",");
      assertThat(leased.body()).contains("\"payload\":" + p + ",");
    }
  }

  @Test
  void payload_nullAndAbsent_comeBackAsNull() {
    String q = queue("rawnull");
    Response r =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"t\",\"payload\":null},{\"type\":\"t\"}]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    for (JsonNode result : r.get("results")) {
      assertThat(api.get("/v1/messages/" + result.get("id").asText()).get("payload").isNull())
          .isTrue();
    }
  }

  @Test
  void payload_malformed_refusedAndNothingStored() {
    String q = queue("rawbad");
    Response r =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"t\",\"payload\":{\"a\":1.}}]}");
    assertError(r, 400, "MALFORMED_JSON");
    assertThat(stats(q).get("total").asLong()).isZero();
  }

  @Test
  void times_areMilliseconds_inEveryAnswer() {
    String q = queue("millis", "leaseTimeout", "30s");
    String id = enqueue(q, "t", Map.of("n", 1)).get(0);
    JsonNode leased = lease(q, 1).get(0);
    assertThat(leased.get("leaseExpiresAt").asText()).matches(MILLIS);
    assertThat(leased.get("enqueuedAt").asText()).matches(MILLIS);
    String token = leased.get("token").asText();
    Response renewed = api.post("/v1/leases/" + token + "/renew", "{\"leaseTimeout\":\"10s\"}");
    assertThat(renewed.get("leaseExpiresAt").asText()).matches(MILLIS);
    Response failed =
        api.post(
            "/v1/leases/" + token + "/fail",
            "{\"reason\":\"HANDLER_EXCEPTION\",\"retryAfter\":\"1m\"}");
    assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    assertThat(failed.get("visibleAt").asText()).matches(MILLIS);
    JsonNode message = api.get("/v1/messages/" + id).json();
    assertThat(message.get("visibleAt").asText()).matches(MILLIS);
    assertThat(message.get("lastError").get("at").asText()).matches(MILLIS);
    assertThat(message.get("history").get(0).get("leasedAt").asText()).matches(MILLIS);
    JsonNode queue = api.get("/v1/queues/" + q).json();
    assertThat(queue.get("createdAt").asText()).matches(MILLIS);
    assertThat(queue.get("stats").get("nextScheduledAt").asText()).matches(MILLIS);
  }

  @Test
  void patch_deadLetterQueueNull_clearsIt() {
    String dlq = queue("clr-dlq");
    String q = queue("clr", "deadLetterQueue", dlq, "maxAttempts", 3);

    Response r = api.patch("/v1/queues/" + q, "{\"deadLetterQueue\":null}");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("deadLetter").asText()).isEqualTo("keep");
    assertThat(r.get("deadLetterQueue").isNull()).isTrue();
    assertThat(r.get("maxAttempts").asInt()).isEqualTo(3);
    assertThat(api.get("/v1/queues/" + q).get("deadLetterQueue").isNull()).isTrue();
    assertThat(api.delete("/v1/queues/" + dlq).status()).as("no longer referenced").isEqualTo(204);
  }

  @Test
  void patch_deadLetterQueueNullWithMove_refusedAndUnchanged() {
    String dlq = queue("clr2-dlq");
    String q = queue("clr2", "deadLetterQueue", dlq);

    Response r = api.patch("/v1/queues/" + q, "{\"deadLetter\":\"move\",\"deadLetterQueue\":null}");

    assertError(r, 400, "INVALID_REQUEST");
    assertThat(r.json().at("/error/message").asText()).contains("deadLetterQueue");
    assertThat(api.get("/v1/queues/" + q).get("deadLetterQueue").asText()).isEqualTo(dlq);
  }

  @Test
  void retryNow_scheduledMessage_visibleAtOnceWithAttemptsKept() {
    String q = queue("now");
    String id = enqueue(q, "t", Map.of("n", 1)).get(0);
    JsonNode leased = lease(q, 1).get(0);
    api.post(
        "/v1/leases/" + leased.get("token").asText() + "/fail",
        "{\"reason\":\"HANDLER_EXCEPTION\",\"retryAfter\":\"1h\"}");
    assertThat(api.get("/v1/messages/" + id).get("state").asText()).isEqualTo("SCHEDULED");

    Response r = api.post("/v1/messages/" + id.substring(0, 12) + "/retry-now");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("READY");
    assertThat(r.get("attempts").asInt()).isEqualTo(1);
    JsonNode history = r.get("history");
    assertThat(history.get(history.size() - 1).get("outcome").asText()).isEqualTo("RETRIED_NOW");
    List<JsonNode> again = lease(q, 1);
    assertThat(again).hasSize(1);
    assertThat(again.get(0).get("attempt").asInt()).isEqualTo(2);
  }

  @Test
  void retryNow_wrongState_conflictNamingTheState() {
    String q = queue("now2");
    String ready = enqueue(q, "t", Map.of("n", 1)).get(0);
    String before = api.get("/v1/messages/" + ready).body();

    Response r = api.post("/v1/messages/" + ready + "/retry-now");

    assertError(r, 409, "NOT_SCHEDULED");
    assertThat(r.json().at("/error/message").asText()).contains("READY");
    assertThat(api.get("/v1/messages/" + ready).body()).isEqualTo(before);
    assertError(api.post("/v1/messages/0000000000000000/retry-now"), 404, "MESSAGE_NOT_FOUND");
  }

  @Test
  void retryNowBulk_reportsRetriedSkippedAndNotFound() {
    String q = queue("now3");
    List<String> ids = enqueue(q, "t", Map.of("n", 1), Map.of("n", 2));
    JsonNode leased = lease(q, 1).get(0);
    api.post(
        "/v1/leases/" + leased.get("token").asText() + "/fail",
        "{\"reason\":\"HANDLER_EXCEPTION\",\"retryAfter\":\"1h\"}");
    String waiting = leased.get("id").asText();
    String ready = ids.get(0).equals(waiting) ? ids.get(1) : ids.get(0);

    Response r =
        api.post(
            "/v1/messages/retry-now",
            HttpApiClient.json(Map.of("ids", List.of(waiting, ready, "0000000000000000"))));

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("retried").toString()).isEqualTo("[\"" + waiting + "\"]");
    assertThat(r.get("skipped").toString()).isEqualTo("[\"" + ready + "\"]");
    assertThat(r.get("notFound").toString()).isEqualTo("[\"0000000000000000\"]");
    assertThat(api.get("/v1/messages/" + waiting).get("state").asText()).isEqualTo("READY");
  }

  private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode node) {
    return node::fields;
  }
}
