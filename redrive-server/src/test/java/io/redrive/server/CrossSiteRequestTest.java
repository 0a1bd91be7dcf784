package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.RawHttp.Answer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a web page could send to a keyless server on the developer's machine (docs/api.md, "Requests
 * from browsers"): each cross-site shape is refused with the JSON error envelope and changes
 * nothing.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class CrossSiteRequestTest extends ApiTestBase {
  private static final String LOCAL = "Host: 127.0.0.1";

  private Answer raw(String method, String path, String headers, String body) {
    return RawHttp.send(server.port(), method + " " + path + " HTTP/1.1\r\n" + headers, body);
  }

  private static void assertRefused(Answer a, int status, String code) {
    assertThat(a.status()).as(a.toString()).isEqualTo(status);
    assertThat(a.header("Content-Type")).as(a.toString()).startsWith("application/json");
    assertThat(a.code()).as(a.toString()).isEqualTo(code);
    assertThat(a.json().path("error").path("message").asText()).isNotBlank();
  }

  private boolean paused(String q) {
    Response r = api.get("/v1/queues/" + q);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.get("paused").asBoolean();
  }

  @Test
  void textPlainBody_refused415_enqueuesNothing() {
    String q = queue("xs-text");
    String body = "{\"messages\":[{\"type\":\"t\",\"payload\":1}]}";
    Answer a =
        raw(
            "POST",
            "/v1/queues/" + q + "/messages",
            LOCAL + "\r\nContent-Type: text/plain;charset=UTF-8\r\nOrigin: http://127.0.0.1",
            body);
    assertRefused(a, 415, "UNSUPPORTED_MEDIA_TYPE");
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void bodyWithoutContentType_refused415() {
    String q = queue("xs-nocontenttype");
    Answer a =
        raw(
            "POST",
            "/v1/queues/" + q + "/messages",
            LOCAL,
            "{\"messages\":[{\"type\":\"t\",\"payload\":1}]}");
    assertRefused(a, 415, "UNSUPPORTED_MEDIA_TYPE");
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void formBody_refused415_pausesNothing() {
    String q = queue("xs-form");
    Answer a =
        raw(
            "POST",
            "/v1/queues/" + q + "/pause",
            LOCAL + "\r\nContent-Type: application/x-www-form-urlencoded",
            "a=b");
    assertRefused(a, 415, "UNSUPPORTED_MEDIA_TYPE");
    assertThat(paused(q)).isFalse();
  }

  @Test
  void noBodyPauseWithoutHeader_refused415_pausesNothing() {
    String q = queue("xs-pause");
    assertRefused(
        raw("POST", "/v1/queues/" + q + "/pause", LOCAL, null), 415, "UNSUPPORTED_MEDIA_TYPE");
    assertRefused(
        raw("POST", "/v1/queues/" + q + "/pause", LOCAL, ""), 415, "UNSUPPORTED_MEDIA_TYPE");
    assertThat(paused(q)).isFalse();
  }

  @Test
  void noBodyPauseWithHeaderOrJsonType_pauses() {
    String q = queue("xs-pause-ok");
    Answer a = raw("POST", "/v1/queues/" + q + "/pause", LOCAL + "\r\nX-Redrive-Request: 1", null);
    assertThat(a.status()).as(a.toString()).isBetween(200, 204);
    assertThat(paused(q)).isTrue();
    Answer b =
        raw(
            "POST",
            "/v1/queues/" + q + "/resume",
            LOCAL + "\r\nContent-Type: application/json",
            null);
    assertThat(b.status()).as(b.toString()).isBetween(200, 204);
    assertThat(paused(q)).isFalse();
  }

  @Test
  void noBodyDropWithoutHeader_refused415_dropsNothing() {
    String q = queue("xs-drop");
    enqueue(q, "t", 1, 2);
    assertRefused(
        raw("POST", "/v1/queues/" + q + "/drop", LOCAL, null), 415, "UNSUPPORTED_MEDIA_TYPE");
    assertThat(stats(q).get("total").asInt()).isEqualTo(2);
  }

  @Test
  void noBodyRedriveWithoutHeader_refused415_movesNothing() {
    String dlq = queue("xs-rd-dlq");
    String q = queue("xs-rd", "deadLetterQueue", dlq);
    enqueue(q, "t", Map.of("a", 1));
    String token = lease(q, 1).get(0).get("token").asText();
    Response failed =
        api.post(
            "/v1/leases/" + token + "/fail",
            "{\"reason\":\"VALIDATION_FAILURE\",\"message\":\"x\"}");
    assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);
    assertRefused(
        raw("POST", "/v1/queues/" + dlq + "/redrive", LOCAL, null), 415, "UNSUPPORTED_MEDIA_TYPE");
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void foreignHost_refused421_onReadsAndChanges() {
    String q = queue("xs-host");
    assertRefused(
        raw("GET", "/v1/queues/" + q, "Host: evil.example:7070", null), 421, "MISDIRECTED_REQUEST");
    assertRefused(raw("GET", "/v1/queues", "Host: evil.example", null), 421, "MISDIRECTED_REQUEST");
    Answer pause =
        raw(
            "POST",
            "/v1/queues/" + q + "/pause",
            "Host: rebind.evil.example:" + server.port() + "\r\nContent-Type: application/json",
            "{}");
    assertRefused(pause, 421, "MISDIRECTED_REQUEST");
    assertThat(paused(q)).isFalse();
  }

  @Test
  void loopbackHosts_allowed() {
    for (String host : new String[] {"localhost", "LOCALHOST:1", "127.0.0.1", "[::1]:8080"}) {
      Answer a = raw("GET", "/v1/queues", "Host: " + host, null);
      assertThat(a.status()).as(host + " " + a).isEqualTo(200);
    }
  }

  @Test
  void foreignOrigin_refused403_pausesNothing() {
    String q = queue("xs-origin");
    Answer a =
        raw(
            "POST",
            "/v1/queues/" + q + "/pause",
            LOCAL + "\r\nContent-Type: application/json\r\nOrigin: https://evil.example",
            "{}");
    assertRefused(a, 403, "ORIGIN_NOT_ALLOWED");
    Answer opaque =
        raw(
            "POST",
            "/v1/queues/" + q + "/pause",
            LOCAL + "\r\nX-Redrive-Request: 1\r\nOrigin: null",
            null);
    assertRefused(opaque, 403, "ORIGIN_NOT_ALLOWED");
    assertThat(paused(q)).isFalse();
  }

  @Test
  void localOrigin_allowed() {
    String q = queue("xs-origin-ok");
    Answer a =
        raw(
            "POST",
            "/v1/queues/" + q + "/pause",
            LOCAL
                + "\r\nContent-Type: application/json\r\nOrigin: http://localhost:"
                + server.port(),
            "{}");
    assertThat(a.status()).as(a.toString()).isBetween(200, 204);
    assertThat(paused(q)).isTrue();
  }

  @Test
  void everyAnswer_carriesNosniffAndCsp() {
    String q = queue("xs-headers");
    Answer[] answers = {
      raw("GET", "/health", LOCAL, null),
      raw("GET", "/v1/queues/" + q, LOCAL, null),
      raw("GET", "/no/such/endpoint", LOCAL, null),
      raw("GET", "/v1/queues", "Host: evil.example", null),
      raw("POST", "/v1/queues/" + q + "/pause", LOCAL + "\r\nContent-Type: text/plain", "x"),
      raw("GET", "/v1/queues/%zz", LOCAL, null)
    };
    for (Answer a : answers) {
      assertThat(a.header("X-Content-Type-Options")).as(a.toString()).isEqualTo("nosniff");
      assertThat(a.header("Content-Security-Policy"))
          .as(a.toString())
          .isEqualTo("default-src 'none'; frame-ancestors 'none'");
    }
  }
}
