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

/**
 * Completed messages keep their story over HTTP (docs/api.md, "Completed messages"), on both
 * stores: the queue setting is created, read, changed and cleared; a completed message of a queue
 * that keeps them is found by id with its attempts and listed with {@code state=completed}; bad
 * values are named 400s that change nothing.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class CompletedStoryApiTest extends ApiTestBase {
  private Response complete(JsonNode leased) {
    return api.post("/v1/leases/" + leased.get("token").asText() + "/complete", "{}");
  }

  @Test
  void aCompletedMessage_isFoundByIdWithItsAttempts_andListed() {
    String q = queue("kept", "completedRetention", "1h");
    String id = enqueue(q, "email", Map.of("order", 42)).get(0);
    JsonNode first = lease(q, 1).get(0);
    Response failed =
        api.post(
            "/v1/leases/" + first.get("token").asText() + "/fail",
            "{\"reason\":\"HANDLER_EXCEPTION\",\"message\":\"smtp down\",\"retryAfter\":\"0s\"}");
    assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    JsonNode second = lease(q, 1).get(0);
    assertThat(complete(second).status()).isEqualTo(200);

    Response m = api.get("/v1/messages/" + id);
    assertThat(m.status()).as(m.toString()).isEqualTo(200);
    assertThat(m.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(m.get("attempts").asInt()).isEqualTo(2);
    assertThat(m.get("completedAt").isNull()).isFalse();
    assertThat(m.get("leasedBy").asText()).isEqualTo("t");
    assertThat(m.get("payload").get("order").asInt()).isEqualTo(42);
    List<String> outcomes = new ArrayList<>();
    m.get("history").forEach(e -> outcomes.add(e.get("outcome").asText()));
    assertThat(outcomes).containsExactly("FAILED", "COMPLETED");

    Response listed = api.get("/v1/queues/" + q + "/messages?state=completed");
    assertThat(listed.status()).as(listed.toString()).isEqualTo(200);
    assertThat(listed.get("messages").get(0).get("id").asText()).isEqualTo(id);
    assertThat(api.get("/v1/queues/" + q + "/messages").get("messages").size())
        .as("not among the queue's messages")
        .isZero();
    assertThat(api.get("/v1/queues/" + q).get("completedRetention").asText()).isEqualTo("1h");
  }

  @Test
  void aQueueThatKeepsNothing_answersNotFoundAfterCompletion() {
    String q = queue("unkept");
    String id = enqueue(q, "email", Map.of("n", 1)).get(0);
    complete(lease(q, 1).get(0));

    assertError(api.get("/v1/messages/" + id), 404, "MESSAGE_NOT_FOUND");
    assertThat(api.get("/v1/queues/" + q).get("completedRetention").isNull()).isTrue();
  }

  @Test
  void theSetting_isChangedAndCleared_badValuesAreNamedAndChangeNothing() {
    String q = queue("setting");
    Response set = api.patch("/v1/queues/" + q, "{\"completedRetention\":\"24h\"}");
    assertThat(set.status()).as(set.toString()).isEqualTo(200);
    assertThat(set.get("completedRetention").asText()).isEqualTo("1d");

    for (String bad : List.of("\"-1s\"", "\"91d\"", "\"soon\"", "5")) {
      Response r = api.patch("/v1/queues/" + q, "{\"completedRetention\":" + bad + "}");
      assertThat(r.status()).as(bad + " " + r).isEqualTo(400);
      assertThat(r.json().path("error").path("message").asText())
          .as(bad)
          .contains("completedRetention");
    }
    assertThat(api.get("/v1/queues/" + q).get("completedRetention").asText()).isEqualTo("1d");

    Response cleared = api.patch("/v1/queues/" + q, "{\"completedRetention\":\"default\"}");
    assertThat(cleared.status()).as(cleared.toString()).isEqualTo(200);
    assertThat(cleared.get("completedRetention").isNull()).isTrue();

    Response badCreate =
        api.post(
            "/v1/queues",
            HttpApiClient.json(
                Map.of("name", TestServers.unique("bad"), "completedRetention", "default")));
    assertThat(badCreate.status()).as(badCreate.toString()).isEqualTo(400);
    assertThat(badCreate.json().path("error").path("message").asText())
        .contains("completedRetention");
  }

  @Test
  void listingCompletedWithOtherStates_isANamed400() {
    String q = queue("mixed", "completedRetention", "1h");
    Response r = api.get("/v1/queues/" + q + "/messages?state=completed,ready");
    assertThat(r.status()).as(r.toString()).isEqualTo(400);
    assertThat(r.json().path("error").path("message").asText())
        .contains("COMPLETED is listed on its own");
    Response unknown = api.get("/v1/queues/" + q + "/messages?state=finished");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.json().path("error").path("message").asText()).contains("completed");
  }
}
