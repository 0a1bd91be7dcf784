package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bad request gets its documented status and code, and changes nothing: the queue, its
 * dead-letter queue, their messages and the list of queues are the same afterwards.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class BadInputTest extends ApiTestBase {
  private static final String MISSING_ID = "00000000-0000-7000-8000-000000000000";
  private static final String NONCE = "0123456789abcdef0123456789abcdef";

  private String q;
  private String dlq;
  private String token;
  private String leasedId;
  private String readyId;

  /** One bad request: {q}, {dlq}, {token}, {id} and {ready} are filled in from the fixture. */
  record Case(String name, String method, String path, String body, int status, String code) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeEach
  void fixture() {
    dlq = queue("bad-dlq");
    q = queue("bad", "deadLetterQueue", dlq);
    List<String> ids = enqueue(q, "t", Map.of("n", 1), Map.of("n", 2));
    JsonNode leased = lease(q, 1).get(0);
    token = leased.get("token").asText();
    leasedId = leased.get("id").asText();
    readyId = ids.get(0).equals(leasedId) ? ids.get(1) : ids.get(0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badRequest_documentedError_changesNothing(Case c) {
    String before = snapshot();
    Response r = api.send(c.method(), fill(c.path()), c.body() == null ? null : fill(c.body()));
    assertError(r, c.status(), c.code());
    assertThat(snapshot()).as("state after " + c.name()).isEqualTo(before);
  }

  private String fill(String text) {
    return text.replace("{q}", q)
        .replace("{dlq}", dlq)
        .replace("{token}", token)
        .replace("{id}", leasedId)
        .replace("{ready}", readyId);
  }

  private String snapshot() {
    List<Object> parts = new ArrayList<>();
    for (String name : List.of(q, dlq)) {
      JsonNode queue = api.get("/v1/queues/" + name).json();
      ((ObjectNode) queue.get("stats")).remove("oldestReadyAge");
      parts.add(queue);
      parts.add(api.get("/v1/queues/" + name + "/messages?limit=1000").json());
    }
    parts.add(api.get("/v1/messages/" + leasedId).json());
    parts.add(api.get("/v1/messages/" + readyId).json());
    List<String> names = new ArrayList<>();
    api.get("/v1/queues").get("queues").forEach(n -> names.add(n.get("name").asText()));
    parts.add(names);
    return HttpApiClient.json(parts);
  }

  private static Case c(
      String name, String method, String path, String body, int status, String code) {
    return new Case(name, method, path, body, status, code);
  }

  private static Case invalid(String name, String method, String path, String body) {
    return c(name, method, path, body, 400, "INVALID_REQUEST");
  }

  private static Case malformed(String name, String method, String path, String body) {
    return c(name, method, path, body, 400, "MALFORMED_JSON");
  }

  private static Case unknown(String name, String method, String path, String body) {
    return c(name, method, path, body, 400, "UNKNOWN_FIELD");
  }

  static Stream<Case> cases() {
    String enq = "/v1/queues/{q}/messages";
    String lease = "/v1/queues/{q}/lease";
    String tok = "/v1/leases/{token}";
    String longName = "n".repeat(201);
    StringBuilder thousandAndOne = new StringBuilder("{\"messages\":[");
    for (int i = 0; i < 1001; i++) {
      thousandAndOne.append(i == 0 ? "" : ",").append("{\"type\":\"t\"}");
    }
    thousandAndOne.append("]}");
    String bigBody =
        "{\"messages\":[{\"type\":\"t\",\"payload\":\"" + "x".repeat(70 * 1024) + "\"}]}";
    String bigPayload =
        "{\"messages\":[{\"type\":\"t\",\"payload\":\"" + "x".repeat(20 * 1024) + "\"}]}";
    return Stream.of(
        // malformed JSON
        malformed("create: truncated", "POST", "/v1/queues", "{\"name\":"),
        malformed("enqueue: unterminated", "POST", enq, "{\"messages\":[{\"type\":\"t\"}]"),
        malformed("lease: not JSON", "POST", lease, "not json"),
        malformed("fail: trailing comma", "POST", tok + "/fail", "{\"reason\":\"UNKNOWN\",}"),
        malformed("patch: single quotes", "PATCH", "/v1/queues/{q}", "{'maxAttempts':3}"),
        malformed("redrive: bad literal", "POST", "/v1/queues/{dlq}/redrive", "{\"dryRun\":tru}"),
        malformed(
            "create: duplicate key", "POST", "/v1/queues", "{\"name\":\"a1\",\"name\":\"b1\"}"),
        malformed("release: open array", "POST", "/v1/leases/release", "{\"tokens\":["),
        malformed("enqueue: two documents", "POST", enq, "{\"messages\":[{\"type\":\"t\"}]} {}"),
        // unknown fields
        unknown(
            "create: unknown field", "POST", "/v1/queues", "{\"name\":\"u1\",\"colour\":\"red\"}"),
        unknown(
            "create: unknown backoff field",
            "POST",
            "/v1/queues",
            "{\"name\":\"u2\",\"backoff\":{\"kind\":\"fixed\",\"cooldown\":\"1s\",\"spread\":1}}"),
        unknown(
            "patch: paused is not a policy field", "PATCH", "/v1/queues/{q}", "{\"paused\":true}"),
        unknown(
            "enqueue: unknown message field",
            "POST",
            enq,
            "{\"messages\":[{\"type\":\"t\",\"urgency\":1}]}"),
        unknown(
            "enqueue: unknown top-level field",
            "POST",
            enq,
            "{\"messages\":[{\"type\":\"t\"}],\"queue\":\"x\"}"),
        unknown("lease: unknown field", "POST", lease, "{\"timeout\":\"1s\"}"),
        unknown("complete: unknown field", "POST", tok + "/complete", "{\"outcome\":\"ok\"}"),
        unknown(
            "fail: unknown field",
            "POST",
            tok + "/fail",
            "{\"reason\":\"UNKNOWN\",\"error\":\"x\"}"),
        unknown(
            "abandon: unknown field", "POST", tok + "/abandon", "{\"delay\":\"1s\",\"why\":\"x\"}"),
        unknown("renew: unknown field", "POST", tok + "/renew", "{\"timeout\":\"1s\"}"),
        unknown(
            "release: unknown field",
            "POST",
            "/v1/leases/release",
            "{\"tokens\":[\"{token}\"],\"all\":true}"),
        unknown(
            "retry: unknown field",
            "POST",
            "/v1/messages/retry",
            "{\"ids\":[\"{id}\"],\"force\":true}"),
        unknown("drop: unknown field", "POST", "/v1/queues/{q}/drop", "{\"state\":[\"DEAD\"]}"),
        unknown("redrive: unknown field", "POST", "/v1/queues/{dlq}/redrive", "{\"from\":\"x\"}"),
        unknown(
            "import: unknown message field",
            "POST",
            "/v1/queues/{q}/import",
            "{\"messages\":[{\"sourceId\":\"a\",\"type\":\"t\",\"id\":\"x\"}]}"),
        unknown(
            "list: unknown query parameter", "GET", "/v1/queues/{q}/messages?status=dead", null),
        unknown("queues: unknown query parameter", "GET", "/v1/queues?all=1", null),
        // wrong types
        invalid("create: name is a number", "POST", "/v1/queues", "{\"name\":5}"),
        invalid(
            "create: maxAttempts as string",
            "POST",
            "/v1/queues",
            "{\"name\":\"w1\",\"maxAttempts\":\"3\"}"),
        invalid(
            "create: maxAttempts fractional",
            "POST",
            "/v1/queues",
            "{\"name\":\"w2\",\"maxAttempts\":2.5}"),
        invalid(
            "create: leaseTimeout as number",
            "POST",
            "/v1/queues",
            "{\"name\":\"w3\",\"leaseTimeout\":30}"),
        invalid("create: body is an array", "POST", "/v1/queues", "[]"),
        invalid("enqueue: messages is an object", "POST", enq, "{\"messages\":{\"type\":\"t\"}}"),
        invalid("enqueue: type is an array", "POST", enq, "{\"messages\":[{\"type\":[\"t\"]}]}"),
        invalid(
            "enqueue: header value is a number",
            "POST",
            enq,
            "{\"messages\":[{\"type\":\"t\",\"headers\":{\"a\":1}}]}"),
        invalid("lease: max as string", "POST", lease, "{\"max\":\"10\"}"),
        invalid("lease: max as boolean", "POST", lease, "{\"max\":true}"),
        invalid("lease: body is an array", "POST", lease, "[1]"),
        invalid("complete: progress as string", "POST", tok + "/complete", "{\"progress\":\"1\"}"),
        invalid(
            "fail: retryable as string",
            "POST",
            tok + "/fail",
            "{\"reason\":\"UNKNOWN\",\"retryable\":\"yes\"}"),
        invalid("abandon: refund as number", "POST", tok + "/abandon", "{\"refund\":1}"),
        invalid("release: tokens as string", "POST", "/v1/leases/release", "{\"tokens\":\"abc\"}"),
        invalid(
            "redrive: dryRun as string",
            "POST",
            "/v1/queues/{dlq}/redrive",
            "{\"dryRun\":\"true\"}"),
        invalid(
            "redrive: deadSince not an instant",
            "POST",
            "/v1/queues/{dlq}/redrive",
            "{\"deadSince\":\"yesterday\"}"),
        invalid(
            "import: sourceId as number",
            "POST",
            "/v1/queues/{q}/import",
            "{\"messages\":[{\"sourceId\":1,\"type\":\"t\"}]}"),
        invalid("retry: ids as numbers", "POST", "/v1/messages/retry", "{\"ids\":[1,2]}"),
        // invalid names, durations, numbers
        invalid("create: name with spaces", "POST", "/v1/queues", "{\"name\":\"bad name!\"}"),
        invalid("create: empty name", "POST", "/v1/queues", "{\"name\":\"\"}"),
        invalid("create: name too long", "POST", "/v1/queues", "{\"name\":\"" + longName + "\"}"),
        invalid("create: missing name", "POST", "/v1/queues", "{\"maxAttempts\":3}"),
        invalid(
            "create: maxAttempts 0", "POST", "/v1/queues", "{\"name\":\"v1\",\"maxAttempts\":0}"),
        invalid(
            "create: maxAttempts negative",
            "POST",
            "/v1/queues",
            "{\"name\":\"v2\",\"maxAttempts\":-1}"),
        invalid(
            "create: maxAttempts too high",
            "POST",
            "/v1/queues",
            "{\"name\":\"v3\",\"maxAttempts\":10001}"),
        invalid(
            "create: duration without unit",
            "POST",
            "/v1/queues",
            "{\"name\":\"v4\",\"leaseTimeout\":\"30\"}"),
        invalid(
            "create: unknown duration unit",
            "POST",
            "/v1/queues",
            "{\"name\":\"v5\",\"leaseTimeout\":\"5y\"}"),
        invalid(
            "create: negative duration",
            "POST",
            "/v1/queues",
            "{\"name\":\"v6\",\"leaseTimeout\":\"-5s\"}"),
        invalid(
            "create: zero expireAfter",
            "POST",
            "/v1/queues",
            "{\"name\":\"v7\",\"expireAfter\":\"0s\"}"),
        invalid(
            "create: unknown backoff kind",
            "POST",
            "/v1/queues",
            "{\"name\":\"v8\",\"backoff\":{\"kind\":\"linear\"}}"),
        invalid(
            "create: negative multiplier",
            "POST",
            "/v1/queues",
            "{\"name\":\"v9\",\"backoff\":{\"kind\":\"exponential\",\"multiplier\":-2}}"),
        invalid(
            "create: retry with maxAttempts",
            "POST",
            "/v1/queues",
            "{\"name\":\"v10\",\"maxAttempts\":3,\"retry\":{\"attempts\":2,\"cooldown\":\"1s\"}}"),
        invalid(
            "create: move without queue",
            "POST",
            "/v1/queues",
            "{\"name\":\"v11\",\"deadLetter\":\"move\"}"),
        invalid(
            "create: own dead-letter queue",
            "POST",
            "/v1/queues",
            "{\"name\":\"v12\",\"deadLetterQueue\":\"v12\"}"),
        invalid(
            "create: unknown stream policy",
            "POST",
            "/v1/queues",
            "{\"name\":\"v13\",\"streamPolicy\":\"random\"}"),
        invalid("create: empty body", "POST", "/v1/queues", null),
        invalid("patch: maxAttempts 0", "PATCH", "/v1/queues/{q}", "{\"maxAttempts\":0}"),
        invalid(
            "patch: dlq given a dlq", "PATCH", "/v1/queues/{dlq}", "{\"deadLetterQueue\":\"{q}\"}"),
        invalid(
            "patch: invalid queue name in path",
            "PATCH",
            "/v1/queues/bad%20name",
            "{\"maxAttempts\":2}"),
        invalid("enqueue: no messages", "POST", enq, "{\"messages\":[]}"),
        invalid("enqueue: missing type", "POST", enq, "{\"messages\":[{\"payload\":1}]}"),
        invalid(
            "enqueue: negative delay",
            "POST",
            enq,
            "{\"messages\":[{\"type\":\"t\",\"delay\":\"-1s\"}]}"),
        invalid(
            "enqueue: delay not a duration",
            "POST",
            enq,
            "{\"messages\":[{\"type\":\"t\",\"delay\":\"forever\"}]}"),
        invalid("enqueue: 1001 messages", "POST", enq, thousandAndOne.toString()),
        invalid(
            "enqueue: zero expireAfter",
            "POST",
            enq,
            "{\"messages\":[{\"type\":\"t\",\"expireAfter\":\"0ms\"}]}"),
        invalid("enqueue: null message", "POST", enq, "{\"messages\":[null]}"),
        invalid("lease: max 0", "POST", lease, "{\"max\":0}"),
        invalid("lease: max negative", "POST", lease, "{\"max\":-3}"),
        invalid("lease: max over 1000", "POST", lease, "{\"max\":1001}"),
        invalid("lease: wait over maxLeaseWait", "POST", lease, "{\"wait\":\"10s\"}"),
        invalid("lease: zero leaseTimeout", "POST", lease, "{\"leaseTimeout\":\"0ms\"}"),
        invalid("lease: wait not a duration", "POST", lease, "{\"wait\":\"soon\"}"),
        invalid("complete: negative progress", "POST", tok + "/complete", "{\"progress\":-1}"),
        invalid("fail: missing reason", "POST", tok + "/fail", "{}"),
        invalid("fail: no body", "POST", tok + "/fail", null),
        invalid(
            "fail: POISON is assigned by Redrive",
            "POST",
            tok + "/fail",
            "{\"reason\":\"POISON\"}"),
        invalid("fail: unknown reason", "POST", tok + "/fail", "{\"reason\":\"NOT_A_REASON\"}"),
        invalid(
            "fail: negative retryAfter",
            "POST",
            tok + "/fail",
            "{\"reason\":\"UNKNOWN\",\"retryAfter\":\"-1s\"}"),
        invalid("abandon: delay over a year", "POST", tok + "/abandon", "{\"delay\":\"400d\"}"),
        invalid(
            "renew: leaseTimeout over 12h", "POST", tok + "/renew", "{\"leaseTimeout\":\"13h\"}"),
        invalid("release: no tokens", "POST", "/v1/leases/release", "{\"tokens\":[]}"),
        invalid(
            "release: malformed token", "POST", "/v1/leases/release", "{\"tokens\":[\"garbage\"]}"),
        invalid("complete: malformed token", "POST", "/v1/leases/abc/complete", null),
        invalid("renew: token with bad nonce", "POST", "/v1/leases/{id}.XYZ/renew", null),
        invalid("retry: no ids", "POST", "/v1/messages/retry", "{\"ids\":[]}"),
        invalid("retry: prefix too short", "POST", "/v1/messages/retry", "{\"ids\":[\"ab\"]}"),
        invalid(
            "drop: leased by filter", "POST", "/v1/queues/{q}/drop", "{\"states\":[\"LEASED\"]}"),
        invalid("drop: limit 0", "POST", "/v1/queues/{q}/drop", "{\"limit\":0}"),
        invalid("redrive: negative limit", "POST", "/v1/queues/{dlq}/redrive", "{\"limit\":-1}"),
        invalid(
            "redrive: since after before",
            "POST",
            "/v1/queues/{dlq}/redrive",
            "{\"deadSince\":\"2030-01-02T00:00:00Z\",\"deadBefore\":\"2030-01-01T00:00:00Z\"}"),
        invalid("list: limit not a number", "GET", "/v1/queues/{q}/messages?limit=abc", null),
        invalid("list: limit 0", "GET", "/v1/queues/{q}/messages?limit=0", null),
        invalid("list: unknown state", "GET", "/v1/queues/{q}/messages?state=bogus", null),
        invalid("get: prefix too short", "GET", "/v1/messages/abc", null),
        invalid(
            "import: missing sourceId",
            "POST",
            "/v1/queues/{q}/import",
            "{\"messages\":[{\"type\":\"t\"}]}"),
        // unknown things and conflicts
        c(
            "lease: unknown queue",
            "POST",
            "/v1/queues/nope-queue/lease",
            null,
            404,
            "QUEUE_NOT_FOUND"),
        c(
            "enqueue: unknown queue",
            "POST",
            "/v1/queues/nope-queue/messages",
            "{\"messages\":[{\"type\":\"t\"}]}",
            404,
            "QUEUE_NOT_FOUND"),
        c(
            "redrive: unknown queue",
            "POST",
            "/v1/queues/nope-queue/redrive",
            "{}",
            404,
            "QUEUE_NOT_FOUND"),
        invalid(
            "create: unknown dead-letter queue",
            "POST",
            "/v1/queues",
            "{\"name\":\"x1\",\"deadLetterQueue\":\"nope-queue\"}"),
        c(
            "complete: token of unknown message",
            "POST",
            "/v1/leases/" + MISSING_ID + "." + NONCE + "/complete",
            null,
            404,
            "LEASE_NOT_FOUND"),
        c(
            "complete: forged token",
            "POST",
            "/v1/leases/{id}." + NONCE + "/complete",
            null,
            409,
            "LEASE_LOST"),
        c(
            "fail: forged token",
            "POST",
            "/v1/leases/{id}." + NONCE + "/fail",
            "{\"reason\":\"UNKNOWN\"}",
            409,
            "LEASE_LOST"),
        c(
            "release: forged token",
            "POST",
            "/v1/leases/release",
            "{\"tokens\":[\"{token}\",\"{id}." + NONCE + "\"]}",
            409,
            "LEASE_LOST"),
        c(
            "complete: token of a ready message",
            "POST",
            "/v1/leases/{ready}." + NONCE + "/complete",
            null,
            409,
            "LEASE_LOST"),
        c("retry: ready message", "POST", "/v1/messages/{ready}/retry", null, 409, "NOT_DEAD"),
        c(
            "create: existing queue",
            "POST",
            "/v1/queues",
            "{\"name\":\"{q}\"}",
            409,
            "QUEUE_EXISTS"),
        c(
            "delete: referenced dead-letter queue",
            "DELETE",
            "/v1/queues/{dlq}",
            null,
            409,
            "QUEUE_IN_USE"),
        c(
            "get: unknown message",
            "GET",
            "/v1/messages/" + MISSING_ID,
            null,
            404,
            "MESSAGE_NOT_FOUND"),
        c(
            "delete: unknown message",
            "DELETE",
            "/v1/messages/" + MISSING_ID,
            null,
            404,
            "MESSAGE_NOT_FOUND"),
        // too large
        c("enqueue: body over maxRequestBytes", "POST", enq, bigBody, 413, "PAYLOAD_TOO_LARGE"),
        c(
            "enqueue: payload over maxPayloadBytes",
            "POST",
            enq,
            bigPayload,
            413,
            "PAYLOAD_TOO_LARGE"),
        c(
            "create: body over maxRequestBytes",
            "POST",
            "/v1/queues",
            "{\"name\":\"big\",\"x\":\"" + "y".repeat(70 * 1024) + "\"}",
            413,
            "PAYLOAD_TOO_LARGE"),
        c(
            "import: payload over maxPayloadBytes",
            "POST",
            "/v1/queues/{q}/import",
            "{\"messages\":[{\"sourceId\":\"s\",\"type\":\"t\",\"payload\":\""
                + "z".repeat(20 * 1024)
                + "\"}]}",
            413,
            "PAYLOAD_TOO_LARGE"));
  }

  /** A NUL (U+0000) in a JSON string: 400 naming the field, on both stores, nothing changed. */
  static Stream<String[]> nulCases() {
    String nul = "a\\u0000b";
    String enq = "/v1/queues/{q}/messages";
    return Stream.of(
        new String[] {"type", enq, "{\"messages\":[{\"type\":\"" + nul + "\"}]}"},
        new String[] {
          "stream", enq, "{\"messages\":[{\"type\":\"t\",\"stream\":\"" + nul + "\"}]}"
        },
        new String[] {
          "dedupeKey", enq, "{\"messages\":[{\"type\":\"t\",\"dedupeKey\":\"" + nul + "\"}]}"
        },
        new String[] {
          "headers.k", enq, "{\"messages\":[{\"type\":\"t\",\"headers\":{\"k\":\"" + nul + "\"}}]}"
        },
        new String[] {
          "headers", enq, "{\"messages\":[{\"type\":\"t\",\"headers\":{\"" + nul + "\":\"v\"}}]}"
        },
        new String[] {"worker", "/v1/queues/{q}/lease", "{\"worker\":\"" + nul + "\"}"},
        new String[] {
          "types[0]", "/v1/queues/{q}/redrive", "{\"types\":[\"" + nul + "\"],\"dryRun\":true}"
        },
        new String[] {"type", "/v1/queues/{q}/drop", "{\"type\":\"" + nul + "\"}"},
        new String[] {"ids[0]", "/v1/messages/retry", "{\"ids\":[\"" + nul + "\"]}"},
        new String[] {
          "sourceId",
          "/v1/queues/{q}/import",
          "{\"messages\":[{\"sourceId\":\"" + nul + "\",\"type\":\"t\"}]}"
        });
  }

  @ParameterizedTest(name = "NUL in {0}")
  @MethodSource("nulCases")
  void nulCharacter_400NamingTheField_changesNothing(String field, String path, String body) {
    String before = snapshot();
    Response r = api.post(fill(path), body);
    assertError(r, 400, "INVALID_REQUEST");
    assertThat(r.json().path("error").path("message").asText()).contains(field).contains("NUL");
    assertThat(snapshot()).isEqualTo(before);
  }

  /** A NUL in a query parameter: 400 naming it, on both stores, before any store read. */
  @org.junit.jupiter.api.Test
  void nulInAQueryParameter_400NamingIt() {
    for (String query : List.of("type=a%00b", "state=DEAD%00", "deadReason=a%00b")) {
      Response r = api.get(fill("/v1/queues/{q}/messages?") + query);
      assertError(r, 400, "INVALID_REQUEST");
      String name = query.substring(0, query.indexOf('='));
      assertThat(r.json().path("error").path("message").asText())
          .as(query)
          .startsWith(name + ":")
          .contains("NUL");
    }
  }

  @org.junit.jupiter.api.Test
  void fail_nulInMessageAndStackTrace_isRecordedNotRefused() {
    Response r =
        api.post(
            "/v1/leases/" + token + "/fail",
            "{\"reason\":\"HANDLER_EXCEPTION\",\"message\":\"boom \\u0000\","
                + "\"stackTrace\":\"E: \\u0000\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode failure = api.get("/v1/messages/" + leasedId).get("lastError");
    assertThat(failure.get("message").asText()).isEqualTo("boom \uFFFD");
    assertThat(failure.get("stackTrace").asText()).isEqualTo("E: \uFFFD");
  }
}
