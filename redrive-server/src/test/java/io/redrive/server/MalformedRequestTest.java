package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.RawHttp.Answer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Requests the embedded web server refuses before they reach a route, and wrong methods on known
 * paths: every one is answered in the API's JSON error envelope, never an HTML page.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class MalformedRequestTest extends ApiTestBase {
  private Answer get(String target, String extraHeaders) {
    return RawHttp.send(
        server.port(), "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1" + extraHeaders, null);
  }

  private static void assertJsonError(Answer a, int status) {
    assertThat(a.status()).as(a.toString()).isEqualTo(status);
    assertThat(a.header("Content-Type")).as(a.toString()).startsWith("application/json");
    assertThat(a.code()).as(a.toString()).isNotBlank();
    assertThat(a.json().path("error").path("message").asText()).as(a.toString()).isNotBlank();
    assertThat(a.header("X-Content-Type-Options")).as(a.toString()).isEqualTo("nosniff");
  }

  @Test
  void badPercentEncoding_jsonError() {
    assertJsonError(get("/v1/queues/%zz", ""), 400);
    assertJsonError(get("/v1/queues/a%", ""), 400);
  }

  @Test
  void nulInPath_jsonError() {
    Answer a = get("/v1/queues/a%00b", "");
    assertThat(a.status()).as(a.toString()).isIn(400, 404);
    assertJsonError(a, a.status());
  }

  @Test
  void uriTooLong_jsonError() {
    Answer a = get("/v1/queues/" + "a".repeat(20_000), "");
    assertJsonError(a, 414);
    assertThat(a.code()).isEqualTo("URI_TOO_LONG");
  }

  @Test
  void headerTooLong_jsonError() {
    Answer a = get("/health", "\r\nX-Big: " + "b".repeat(20_000));
    assertJsonError(a, 431);
    assertThat(a.code()).isEqualTo("HEADERS_TOO_LARGE");
  }

  @Test
  void wrongMethodOnKnownPath_405WithAllow() {
    String q = queue("m405");
    Answer a =
        RawHttp.send(
            server.port(),
            "PUT /v1/queues/"
                + q
                + "/pause HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json",
            "{}");
    assertJsonError(a, 405);
    assertThat(a.code()).isEqualTo("METHOD_NOT_ALLOWED");
    assertThat(a.header("Allow")).isEqualTo("POST");
    Answer b =
        RawHttp.send(
            server.port(),
            "DELETE /v1/queues HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Redrive-Request: 1",
            null);
    assertJsonError(b, 405);
    assertThat(b.header("Allow")).isEqualTo("GET, POST");
    Answer c = get("/v1/queues/" + q + "/pause", "");
    assertJsonError(c, 405);
    assertThat(c.header("Allow")).isEqualTo("POST");
  }
}
