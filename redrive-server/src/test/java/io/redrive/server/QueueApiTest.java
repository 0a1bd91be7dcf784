package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass
@EnumSource(StoreKind.class)
class QueueApiTest extends ApiTestBase {

  @Test
  void create_defaults_returnsQueueJson() {
    String name = TestServers.unique("orders");
    Response r = api.post("/v1/queues", "{\"name\":\"" + name + "\"}");
    assertThat(r.status()).isEqualTo(201);
    JsonNode q = r.json();
    assertThat(q.get("name").asText()).isEqualTo(name);
    assertThat(q.get("maxAttempts").asInt()).isEqualTo(5);
    assertThat(q.get("leaseTimeout").asText()).isEqualTo("30s");
    assertThat(q.get("backoff").get("kind").asText()).isEqualTo("exponential");
    assertThat(q.get("backoff").get("initial").asText()).isEqualTo("1m");
    assertThat(q.get("backoff").get("multiplier").asDouble()).isEqualTo(2.0);
    assertThat(q.get("backoff").get("max").asText()).isEqualTo("1h");
    assertThat(q.get("expireAfter").isNull()).isTrue();
    assertThat(q.get("deadLetter").asText()).isEqualTo("keep");
    assertThat(q.get("deadLetterQueue").isNull()).isTrue();
    assertThat(q.get("streamPolicy").asText()).isEqualTo("HOLD");
    assertThat(q.get("maxCrashes").asInt()).isZero();
    assertThat(q.get("paused").asBoolean()).isFalse();
    assertThat(q.get("createdAt").asText()).endsWith("Z");
    assertThat(q.get("updatedAt").asText()).isNotBlank();
  }

  @Test
  void create_withEveryPolicyField_roundTrips() {
    String dlq = queue("dlq");
    String name = TestServers.unique("full");
    Response r =
        api.post(
            "/v1/queues",
            HttpApiClient.json(
                Map.of(
                    "name",
                    name,
                    "maxAttempts",
                    3,
                    "leaseTimeout",
                    "45s",
                    "backoff",
                    Map.of("kind", "exponential", "initial", "5s", "multiplier", 3.0, "max", "10m"),
                    "expireAfter",
                    "2h",
                    "deadLetterQueue",
                    dlq,
                    "streamPolicy",
                    "halt")));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    JsonNode q = api.get("/v1/queues/" + name).json();
    assertThat(q.get("maxAttempts").asInt()).isEqualTo(3);
    assertThat(q.get("leaseTimeout").asText()).isEqualTo("45s");
    assertThat(q.get("backoff").get("initial").asText()).isEqualTo("5s");
    assertThat(q.get("backoff").get("multiplier").asDouble()).isEqualTo(3.0);
    assertThat(q.get("backoff").get("max").asText()).isEqualTo("10m");
    assertThat(q.get("expireAfter").asText()).isEqualTo("2h");
    assertThat(q.get("deadLetter").asText()).isEqualTo("move");
    assertThat(q.get("deadLetterQueue").asText()).isEqualTo(dlq);
    assertThat(q.get("streamPolicy").asText()).isEqualTo("HALT");
    assertThat(q.get("stats").get("total").asInt()).isZero();
  }

  @Test
  void create_retryShortForm_setsAttemptsAndFixedBackoff() {
    String name = queue("retry", "retry", Map.of("attempts", 3, "cooldown", "30s"));
    JsonNode q = api.get("/v1/queues/" + name).json();
    assertThat(q.get("maxAttempts").asInt()).isEqualTo(3);
    assertThat(q.get("backoff").get("kind").asText()).isEqualTo("fixed");
    assertThat(q.get("backoff").get("cooldown").asText()).isEqualTo("30s");
  }

  @Test
  void create_existing_conflictQueueExists() {
    String name = queue("dup");
    assertError(api.post("/v1/queues", "{\"name\":\"" + name + "\"}"), 409, "QUEUE_EXISTS");
  }

  @Test
  void list_containsCreatedQueues() {
    String a = queue("list-a");
    String b = queue("list-b");
    Response r = api.get("/v1/queues");
    assertThat(r.status()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    r.get("queues").forEach(n -> names.add(n.get("name").asText()));
    assertThat(names).contains(a, b);
  }

  @Test
  void get_unknown_queueNotFound() {
    assertError(api.get("/v1/queues/nope-" + System.nanoTime()), 404, "QUEUE_NOT_FOUND");
  }

  @Test
  void patch_mergesAndClearsExpireAfter() {
    String name = queue("patch", "expireAfter", "1h", "maxAttempts", 7);
    Response r = api.patch("/v1/queues/" + name, "{\"leaseTimeout\":\"10s\",\"expireAfter\":null}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("leaseTimeout").asText()).isEqualTo("10s");
    assertThat(r.get("maxAttempts").asInt()).isEqualTo(7);
    assertThat(r.get("expireAfter").isNull()).isTrue();
    Response again =
        api.patch(
            "/v1/queues/" + name,
            "{\"backoff\":{\"kind\":\"fixed\",\"cooldown\":\"2s\"},\"deadLetter\":\"discard\"}");
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.get("backoff").get("cooldown").asText()).isEqualTo("2s");
    assertThat(again.get("deadLetter").asText()).isEqualTo("discard");
    assertThat(again.get("leaseTimeout").asText()).isEqualTo("10s");
  }

  @Test
  void backoffJitter_createPatchAloneAndBad() {
    String name =
        queue("jitter", "backoff", Map.of("kind", "fixed", "cooldown", "30s", "jitter", "full"));
    JsonNode b = api.get("/v1/queues/" + name).json().get("backoff");
    assertThat(b.get("cooldown").asText()).isEqualTo("30s");
    assertThat(b.get("jitter").asText()).isEqualTo("FULL");

    Response alone = api.patch("/v1/queues/" + name, "{\"backoff\":{\"jitter\":\"EQUAL\"}}");
    assertThat(alone.status()).as(alone.toString()).isEqualTo(200);
    assertThat(alone.get("backoff").get("cooldown").asText()).isEqualTo("30s");
    assertThat(alone.get("backoff").get("jitter").asText()).isEqualTo("EQUAL");

    Response none = api.patch("/v1/queues/" + name, "{\"backoff\":{\"jitter\":\"none\"}}");
    assertThat(none.get("backoff").has("jitter")).as("NONE is left out").isFalse();

    Response bad = api.patch("/v1/queues/" + name, "{\"backoff\":{\"jitter\":\"half\"}}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.toString())
        .contains("backoff.jitter: must be one of NONE, FULL, EQUAL, was half");
  }

  @Test
  void maxCrashes_createAndPatch_roundTrip() {
    String name = queue("crashes", "maxCrashes", 2);
    assertThat(api.get("/v1/queues/" + name).json().get("maxCrashes").asInt()).isEqualTo(2);

    Response keep = api.patch("/v1/queues/" + name, "{\"maxAttempts\":9}");
    assertThat(keep.status()).as(keep.toString()).isEqualTo(200);
    assertThat(keep.get("maxCrashes").asInt()).isEqualTo(2);
    Response off = api.patch("/v1/queues/" + name, "{\"maxCrashes\":0}");
    assertThat(off.status()).as(off.toString()).isEqualTo(200);
    assertThat(off.get("maxCrashes").asInt()).isZero();
    assertThat(off.get("maxAttempts").asInt()).isEqualTo(9);
  }

  @Test
  void maxCrashes_negative_refusedNamingTheField_changesNothing() {
    String name = queue("crashes-bad", "maxCrashes", 3);

    Response patch = api.patch("/v1/queues/" + name, "{\"maxCrashes\":-1,\"maxAttempts\":2}");
    Response create = api.post("/v1/queues", "{\"name\":\"" + name + "-x\",\"maxCrashes\":-2}");

    for (Response r : List.of(patch, create)) {
      assertThat(r.status()).as(r.toString()).isEqualTo(400);
      assertThat(r.json().path("error").path("message").asText()).startsWith("maxCrashes: ");
    }
    JsonNode q = api.get("/v1/queues/" + name).json();
    assertThat(q.get("maxCrashes").asInt()).isEqualTo(3);
    assertThat(q.get("maxAttempts").asInt()).isEqualTo(5);
    assertError(api.get("/v1/queues/" + name + "-x"), 404, "QUEUE_NOT_FOUND");
  }

  @Test
  void patch_unknownQueue_notFound() {
    assertError(
        api.patch("/v1/queues/nope-" + System.nanoTime(), "{\"maxAttempts\":2}"),
        404,
        "QUEUE_NOT_FOUND");
  }

  @Test
  void delete_removesQueue_then404() {
    String name = queue("del");
    enqueue(name, "t", 1);
    Response r = api.delete("/v1/queues/" + name);
    assertThat(r.status()).isEqualTo(204);
    assertThat(r.body()).isEmpty();
    assertError(api.get("/v1/queues/" + name), 404, "QUEUE_NOT_FOUND");
    assertError(api.delete("/v1/queues/" + name), 404, "QUEUE_NOT_FOUND");
  }

  @Test
  void delete_referencedDlq_conflictQueueInUse() {
    String dlq = queue("inuse-dlq");
    queue("inuse", "deadLetterQueue", dlq);
    assertError(api.delete("/v1/queues/" + dlq), 409, "QUEUE_IN_USE");
    assertThat(api.get("/v1/queues/" + dlq).status()).isEqualTo(200);
  }

  @Test
  void pauseAndResume_toggleLeasing() {
    String name = queue("pause");
    enqueue(name, "t", "a");
    Response paused = api.post("/v1/queues/" + name + "/pause");
    assertThat(paused.status()).isEqualTo(200);
    assertThat(paused.get("paused").asBoolean()).isTrue();
    assertThat(lease(name, 1)).isEmpty();
    Response resumed = api.post("/v1/queues/" + name + "/resume");
    assertThat(resumed.status()).isEqualTo(200);
    assertThat(resumed.get("paused").asBoolean()).isFalse();
    assertThat(lease(name, 1)).hasSize(1);
    assertError(
        api.post("/v1/queues/nope-" + System.nanoTime() + "/pause"), 404, "QUEUE_NOT_FOUND");
  }

  @Test
  void stats_countsByState() {
    String name = queue("stats");
    enqueue(name, "t", 1, 2, 3);
    lease(name, 1);
    JsonNode s = stats(name);
    assertThat(s.get("queue").asText()).isEqualTo(name);
    assertThat(s.get("ready").asInt()).isEqualTo(2);
    assertThat(s.get("leased").asInt()).isEqualTo(1);
    assertThat(s.get("scheduled").asInt()).isZero();
    assertThat(s.get("dead").asInt()).isZero();
    assertThat(s.get("leaseExpired").asInt()).isZero();
    assertThat(s.get("total").asInt()).isEqualTo(3);
    assertThat(s.get("attempts").get("0").asInt()).isEqualTo(2);
    assertThat(s.get("attempts").get("1").asInt()).isEqualTo(1);
    assertThat(s.get("deadReasons").isObject()).isTrue();
    assertThat(s.get("failureReasons").isObject()).isTrue();
    assertThat(s.has("nextScheduledAt")).isTrue();
    assertThat(s.has("oldestReadyAge")).isTrue();
    // an age in at most its two largest units, as people write it (1m4s, never 64555ms)
    assertThat(s.get("oldestReadyAge").asText()).matches("(\\d+(d|h|m|s|ms)){1,2}");
    assertError(api.get("/v1/queues/nope-" + System.nanoTime() + "/stats"), 404, "QUEUE_NOT_FOUND");
  }
}
