package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Producing and consuming: enqueue, lease (and long poll), complete, fail, abandon, renew. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ConsumeApiTest extends ApiTestBase {

  @Test
  void enqueue_returnsIds_andPayloadRoundTripsAsJson() {
    String q = queue("enq");
    Response r =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"send-email\",\"payload\":{\"to\":\"ada@example.com\",\"n\":[1,2]},"
                + "\"headers\":{\"trace\":\"abc\"},\"stream\":\"c-42\"},"
                + "{\"type\":\"plain\",\"payload\":\"text\"},{\"type\":\"none\"}]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    assertThat(r.get("results")).hasSize(3);
    assertThat(r.get("results").get(0).get("duplicate").asBoolean()).isFalse();
    List<JsonNode> leased = lease(q, 3);
    assertThat(leased).hasSize(3);
    JsonNode first = leased.get(0);
    assertThat(first.get("payload").get("to").asText()).isEqualTo("ada@example.com");
    assertThat(first.get("payload").get("n").get(1).asInt()).isEqualTo(2);
    assertThat(first.get("headers").get("trace").asText()).isEqualTo("abc");
    assertThat(first.get("stream").asText()).isEqualTo("c-42");
    assertThat(first.get("type").asText()).isEqualTo("send-email");
    assertThat(first.get("queue").asText()).isEqualTo(q);
    assertThat(first.get("attempt").asInt()).isEqualTo(1);
    assertThat(first.get("maxAttempts").asInt()).isEqualTo(5);
    assertThat(first.get("progress").asLong()).isZero();
    assertThat(first.get("token").asText()).startsWith(first.get("id").asText() + ".");
    assertThat(Instant.parse(first.get("leaseExpiresAt").asText())).isAfter(Instant.now());
    assertThat(first.get("enqueuedAt").asText()).isNotBlank();
    assertThat(leased.get(1).get("payload").asText()).isEqualTo("text");
    assertThat(leased.get(2).get("payload").isNull()).isTrue();
  }

  @Test
  void enqueue_dedupeKey_returnsFirstIdAsDuplicate() {
    String q = queue("dedupe");
    String body = "{\"messages\":[{\"type\":\"t\",\"dedupeKey\":\"k1\"}]}";
    Response a = api.post("/v1/queues/" + q + "/messages", body);
    Response b = api.post("/v1/queues/" + q + "/messages", body);
    assertThat(b.status()).isEqualTo(201);
    assertThat(b.get("results").get(0).get("duplicate").asBoolean()).isTrue();
    assertThat(b.get("results").get(0).get("id").asText())
        .isEqualTo(a.get("results").get(0).get("id").asText());
    assertThat(stats(q).get("total").asInt()).isEqualTo(1);
  }

  @Test
  void enqueue_dedupeKeyOfACompletedMessage_isItsDuplicateWithinTheCompletionWindow() {
    String q = queue("dedupe-done");
    String body = "{\"messages\":[{\"type\":\"t\",\"dedupeKey\":\"k1\"}]}";
    Response a = api.post("/v1/queues/" + q + "/messages", body);
    JsonNode m = lease(q, 1).get(0);
    assertThat(api.post("/v1/leases/" + m.get("token").asText() + "/complete").status())
        .isEqualTo(200);

    Response retry = api.post("/v1/queues/" + q + "/messages", body);

    assertThat(retry.status()).isEqualTo(201);
    assertThat(retry.get("results").get(0).get("duplicate").asBoolean()).isTrue();
    assertThat(retry.get("results").get(0).get("id").asText())
        .isEqualTo(a.get("results").get(0).get("id").asText());
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void enqueue_delay_isScheduled() {
    String q = queue("delay");
    api.post("/v1/queues/" + q + "/messages", "{\"messages\":[{\"type\":\"t\",\"delay\":\"5m\"}]}");
    assertThat(stats(q).get("scheduled").asInt()).isEqualTo(1);
    assertThat(lease(q, 1)).isEmpty();
  }

  @Test
  void enqueue_unknownQueue_notFound() {
    assertError(
        api.post(
            "/v1/queues/nope-" + System.nanoTime() + "/messages",
            "{\"messages\":[{\"type\":\"t\"}]}"),
        404,
        "QUEUE_NOT_FOUND");
  }

  @Test
  void lease_emptyBody_usesDefaults() {
    String q = queue("lease-default");
    enqueue(q, "t", 1, 2);
    Response r = api.post("/v1/queues/" + q + "/lease");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.get("messages")).hasSize(1);
    assertThat(r.get("poisoned")).isEmpty();
    assertThat(r.get("expired")).isEmpty();
  }

  @Test
  void lease_poisonedMessage_reportedNotDelivered() {
    String q = queue("poison", "maxAttempts", 1, "leaseTimeout", "50ms");
    String id = enqueue(q, "t", 1).get(0);
    assertThat(lease(q, 1)).hasSize(1);
    awaitLeaseExpired(q);
    Response r = api.post("/v1/queues/" + q + "/lease", "{\"max\":5}");
    assertThat(r.get("messages")).isEmpty();
    assertThat(r.get("poisoned").get(0).asText()).isEqualTo(id);
    JsonNode m = api.get("/v1/messages/" + id).json();
    assertThat(m.get("state").asText()).isEqualTo("DEAD");
    assertThat(m.get("deadReason").asText()).isEqualTo("POISON");
  }

  @Test
  void complete_settlesAndMessageLeaves() {
    String q = queue("complete");
    enqueue(q, "t", 1);
    JsonNode m = lease(q, 1).get(0);
    Response r =
        api.post("/v1/leases/" + m.get("token").asText() + "/complete", "{\"progress\":3}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("id").asText()).isEqualTo(m.get("id").asText());
    assertThat(r.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(r.get("discarded").asBoolean()).isFalse();
    assertThat(r.get("repeated").asBoolean()).isFalse();
    assertThat(stats(q).get("total").asInt()).isZero();
    // a repeat (its first answer lost, say) is answered as the completion it repeats
    Response again = api.post("/v1/leases/" + m.get("token").asText() + "/complete");
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.get("id").asText()).isEqualTo(m.get("id").asText());
    assertThat(again.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(again.get("repeated").asBoolean()).isTrue();
    assertError(
        api.post("/v1/leases/" + m.get("id").asText() + "." + "0".repeat(32) + "/complete"),
        404,
        "LEASE_NOT_FOUND");
  }

  @Test
  void fail_retryable_isScheduledWithRetryAfter() {
    String q = queue("fail-retry");
    enqueue(q, "t", 1);
    JsonNode m = lease(q, 1).get(0);
    Response r =
        api.post(
            "/v1/leases/" + m.get("token").asText() + "/fail",
            "{\"reason\":\"HANDLER_EXCEPTION\",\"message\":\"boom\",\"retryAfter\":\"10m\",\"progress\":1,\"stackTrace\":\"at x\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("SCHEDULED");
    assertThat(Instant.parse(r.get("visibleAt").asText()))
        .isAfter(Instant.now().plus(Duration.ofMinutes(9)));
    JsonNode msg = api.get("/v1/messages/" + m.get("id").asText()).json();
    assertThat(msg.get("lastError").get("reason").asText()).isEqualTo("HANDLER_EXCEPTION");
    assertThat(msg.get("lastError").get("message").asText()).isEqualTo("boom");
    assertThat(msg.get("lastError").get("category").asText()).isEqualTo("APPLICATION");
    assertThat(msg.get("lastError").get("display").asText()).contains("boom");
    assertThat(msg.get("progress").asLong()).isEqualTo(1);
  }

  @Test
  void fail_notRetryable_movesToDeadLetterQueue() {
    String dlq = queue("fail-dlq");
    String q = queue("fail-dead", "deadLetterQueue", dlq);
    enqueue(q, "t", Map.of("k", "v"));
    JsonNode m = lease(q, 1).get(0);
    Response r =
        api.post(
            "/v1/leases/" + m.get("token").asText() + "/fail",
            "{\"reason\":\"validation_failure\",\"message\":\"bad\"}");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("DEAD");
    assertThat(r.get("deadReason").asText()).isEqualTo("VALIDATION_FAILURE");
    assertThat(r.get("deadLetterQueue").asText()).isEqualTo(dlq);
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void abandon_withDelay_andRefund() {
    String q = queue("abandon");
    enqueue(q, "t", 1);
    JsonNode m = lease(q, 1).get(0);
    Response r =
        api.post(
            "/v1/leases/" + m.get("token").asText() + "/abandon",
            "{\"delay\":\"0s\",\"refund\":true,\"note\":\"shutting down\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("READY");
    JsonNode again = lease(q, 1).get(0);
    assertThat(again.get("attempt").asInt()).isEqualTo(1);
    Response delayed =
        api.post("/v1/leases/" + again.get("token").asText() + "/abandon", "{\"delay\":\"5m\"}");
    assertThat(delayed.get("state").asText()).isEqualTo("SCHEDULED");
  }

  @Test
  void renew_extendsLease() {
    String q = queue("renew");
    enqueue(q, "t", 1);
    JsonNode m = lease(q, 1).get(0);
    Response r =
        api.post("/v1/leases/" + m.get("token").asText() + "/renew", "{\"leaseTimeout\":\"10m\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(Instant.parse(r.get("leaseExpiresAt").asText()))
        .isAfter(Instant.now().plus(Duration.ofMinutes(9)));
    Response plain = api.post("/v1/leases/" + m.get("token").asText() + "/renew");
    assertThat(plain.status()).isEqualTo(200);
  }

  @Test
  void release_givesLeasesBackWithoutUsingAttempts() {
    String q = queue("release");
    enqueue(q, "t", 1, 2);
    List<JsonNode> leased = lease(q, 2);
    Response r =
        api.post(
            "/v1/leases/release",
            HttpApiClient.json(
                Map.of(
                    "tokens",
                    List.of(
                        leased.get(0).get("token").asText(),
                        leased.get(1).get("token").asText()))));
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("results")).hasSize(2);
    assertThat(r.get("results").get(0).get("state").asText()).isEqualTo("READY");
    assertThat(lease(q, 2)).allSatisfy(m -> assertThat(m.get("attempt").asInt()).isEqualTo(1));
  }

  @Test
  void staleToken_afterReLease_leaseLostAndNothingChanges() {
    String q = queue("stale", "leaseTimeout", "50ms");
    enqueue(q, "t", 1);
    JsonNode first = lease(q, 1).get(0);
    awaitLeaseExpired(q);
    // The second lease is long, so a slow machine cannot let it expire before the checks below.
    JsonNode second =
        api.post(
                "/v1/queues/" + q + "/lease",
                "{\"worker\":\"t\",\"max\":1,\"leaseTimeout\":\"1h\"}")
            .get("messages")
            .get(0);
    assertThat(second.get("attempt").asInt()).isEqualTo(2);
    String stale = first.get("token").asText();
    assertError(api.post("/v1/leases/" + stale + "/complete"), 409, "LEASE_LOST");
    assertError(
        api.post("/v1/leases/" + stale + "/fail", "{\"reason\":\"UNKNOWN\"}"), 409, "LEASE_LOST");
    assertError(api.post("/v1/leases/" + stale + "/abandon"), 409, "LEASE_LOST");
    assertError(api.post("/v1/leases/" + stale + "/renew"), 409, "LEASE_LOST");
    assertThat(stats(q).get("leased").asInt()).isEqualTo(1);
    Response ok = api.post("/v1/leases/" + second.get("token").asText() + "/complete");
    assertThat(ok.status()).isEqualTo(200);
  }

  @Test
  void longPoll_returnsAsSoonAsAMessageIsEnqueued() throws Exception {
    String q = queue("poll");
    CompletableFuture<Response> poll =
        CompletableFuture.supplyAsync(
            () -> api.post("/v1/queues/" + q + "/lease", "{\"wait\":\"5s\",\"max\":1}"));
    sleep(300);
    assertThat(poll).isNotDone();
    enqueue(q, "t", "hello");
    Response r = poll.get();
    assertThat(r.status()).isEqualTo(200);
    // Had the poll not returned on the message, it would have come back empty after 5 s.
    assertThat(r.get("messages")).hasSize(1);
    assertThat(r.get("messages").get(0).get("payload").asText()).isEqualTo("hello");
  }

  @Test
  void longPoll_delayedMessageBecomesVisible_withoutSignal() {
    String q = queue("poll-delay");
    api.post(
        "/v1/queues/" + q + "/messages", "{\"messages\":[{\"type\":\"t\",\"delay\":\"400ms\"}]}");
    Response r = api.post("/v1/queues/" + q + "/lease", "{\"wait\":\"4s\"}");
    assertThat(r.get("messages")).hasSize(1);
  }

  @Test
  void longPoll_nothingArrives_emptyAfterWait() {
    String q = queue("poll-empty");
    long start = System.nanoTime();
    Response r = api.post("/v1/queues/" + q + "/lease", "{\"wait\":\"600ms\"}");
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.get("messages")).isEmpty();
    assertThat(millis).isBetween(550L, 3_000L);
  }

  /** Waits (on the real clock the server runs on) until the queue's only lease has run out. */
  private void awaitLeaseExpired(String q) {
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .pollInterval(java.time.Duration.ofMillis(10))
        .until(() -> stats(q).get("leaseExpired").asInt() == 1);
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void lease_types_leasesOnlyThoseAndLeavesTheOthersUntouched() {
    String q = queue("types");
    String b = enqueue(q, "b", 1).get(0);
    String a = enqueue(q, "a", 2).get(0);

    Response r = api.post("/v1/queues/" + q + "/lease", "{\"max\":10,\"types\":[\"a\"]}");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("messages")).hasSize(1);
    assertThat(r.get("messages").get(0).get("id").asText()).isEqualTo(a);
    Response other = api.get("/v1/messages/" + b);
    assertThat(other.get("attempts").asInt()).isZero();
    assertThat(other.get("state").asText()).isEqualTo("READY");
    assertThat(lease(q, 10)).extracting(m -> m.get("id").asText()).containsExactly(b);
  }

  @Test
  void lease_badTypes_refusedNamingTheField() {
    String q = queue("bad-types");
    enqueue(q, "a", 1);

    assertError(
        api.post("/v1/queues/" + q + "/lease", "{\"types\":[\" \"]}"), 400, "INVALID_REQUEST");
    Response blank = api.post("/v1/queues/" + q + "/lease", "{\"types\":[\"a\",\"\"]}");
    assertThat(blank.json().path("error").path("message").asText())
        .isEqualTo("types[1]: must not be blank");
    assertThat(stats(q).get("ready").asInt()).isEqualTo(1);
  }
}
