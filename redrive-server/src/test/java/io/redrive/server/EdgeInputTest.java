package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bad input at the edges: numbers for instants, fields sent to endpoints that take no body, and
 * lone UTF-16 surrogates; each is refused naming the field and changes nothing.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class EdgeInputTest extends ApiTestBase {
  private String kill(String queue) {
    enqueue(queue, "t", Map.of("a", 1));
    JsonNode m = lease(queue, 1).get(0);
    Response r =
        api.post(
            "/v1/leases/" + m.get("token").asText() + "/fail",
            "{\"reason\":\"VALIDATION_FAILURE\",\"message\":\"bad\"}");
    assertThat(r.get("state").asText()).as(r.toString()).isEqualTo("DEAD");
    return m.get("id").asText();
  }

  private boolean paused(String q) {
    return api.get("/v1/queues/" + q).get("paused").asBoolean();
  }

  @Test
  void deadSinceAndDeadBefore_numbers_refused_movesNothing() {
    String dlq = queue("edge-rd-dlq");
    String q = queue("edge-rd", "deadLetterQueue", dlq);
    kill(q);
    for (String field : new String[] {"deadSince", "deadBefore"}) {
      for (String value : new String[] {"0", "1700000000", "1.5"}) {
        Response r =
            api.post("/v1/queues/" + dlq + "/redrive", "{\"" + field + "\":" + value + "}");
        assertError(r, 400, "INVALID_REQUEST");
        assertThat(r.json().path("error").path("message").asText()).startsWith(field + ":");
      }
    }
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);
    Response ok =
        api.post("/v1/queues/" + dlq + "/redrive", "{\"deadBefore\":\"2999-01-01T00:00:00Z\"}");
    assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
    assertThat(ok.get("count").asInt()).isEqualTo(1);
  }

  @Test
  void pauseResume_unknownFields_refused() {
    String q = queue("edge-pause");
    assertError(api.post("/v1/queues/" + q + "/pause", "{\"force\":true}"), 400, "UNKNOWN_FIELD");
    assertError(api.post("/v1/queues/" + q + "/pause", "[1]"), 400, "INVALID_REQUEST");
    assertThat(paused(q)).isFalse();
    assertThat(api.post("/v1/queues/" + q + "/pause", "{}").status()).isEqualTo(200);
    assertThat(paused(q)).isTrue();
    assertError(api.post("/v1/queues/" + q + "/resume", "{\"now\":1}"), 400, "UNKNOWN_FIELD");
    assertThat(paused(q)).isTrue();
    assertThat(api.post("/v1/queues/" + q + "/resume").status()).isEqualTo(200);
    assertThat(paused(q)).isFalse();
  }

  @Test
  void singleRetry_unknownFields_refused_messageStaysDead() {
    String q = queue("edge-retry");
    String id = kill(q);
    Response r = api.post("/v1/messages/" + id + "/retry", "{\"delay\":\"1s\"}");
    assertError(r, 400, "UNKNOWN_FIELD");
    assertThat(r.json().path("error").path("message").asText()).contains("\"delay\"");
    assertThat(api.get("/v1/messages/" + id).get("state").asText()).isEqualTo("DEAD");
    assertThat(api.post("/v1/messages/" + id + "/retry").status()).isEqualTo(200);
    assertThat(api.get("/v1/messages/" + id).get("state").asText()).isNotEqualTo("DEAD");
  }

  @Test
  void loneSurrogate_escaped_refusedNamingTheField() {
    String q = queue("edge-surrogate");
    String[] bodies = {
      "{\"messages\":[{\"type\":\"t\",\"payload\":{\"a\":\"x\\ud800\"}}]}",
      "{\"messages\":[{\"type\":\"t\",\"payload\":{\"a\":\"\\udc00y\"}}]}",
      "{\"messages\":[{\"type\":\"t\",\"payload\":{\"a\":\"\\ud800\\ud800\"}}]}",
    };
    for (String body : bodies) {
      Response r = api.post("/v1/queues/" + q + "/messages", body);
      assertError(r, 400, "INVALID_REQUEST");
      assertThat(r.json().path("error").path("message").asText())
          .startsWith("messages[0].payload.a:")
          .contains("surrogate");
    }
    Response type =
        api.post("/v1/queues/" + q + "/messages", "{\"messages\":[{\"type\":\"\\ud800\"}]}");
    assertError(type, 400, "INVALID_REQUEST");
    assertThat(type.json().path("error").path("message").asText()).startsWith("messages[0].type:");
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void loneSurrogate_asUtf8Bytes_refused() {
    String q = queue("edge-surrogate-bytes");
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(
        "{\"messages\":[{\"type\":\"t\",\"payload\":{\"a\":\"".getBytes(StandardCharsets.UTF_8));
    body.writeBytes(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}); // U+D800 encoded
    body.writeBytes("\"}}]}".getBytes(StandardCharsets.UTF_8));
    Response r = api.sendBytes("POST", "/v1/queues/" + q + "/messages", body.toByteArray());
    assertThat(r.status()).as(r.toString()).isEqualTo(400);
    assertThat(r.code()).isEqualTo("INVALID_REQUEST");
    assertThat(r.json().path("error").path("message").asText()).startsWith("body: not valid UTF-8");
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void surrogatePair_accepted_andKeptExactly() {
    String q = queue("edge-pair");
    String payload = "{\"a\":\"\\ud83d\\ude00 \uD83D\uDE00\"}";
    Response r =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"t\",\"payload\":" + payload + "}]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    String id = r.get("results").get(0).get("id").asText();
    JsonNode got = api.get("/v1/messages/" + id).get("payload");
    assertThat(got.get("a").asText()).isEqualTo("\uD83D\uDE00 \uD83D\uDE00");
  }
}
