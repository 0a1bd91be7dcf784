package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code POST /v1/queues/{name}/what-if} on both stores: a dead story replayed, bad input. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class WhatIfApiTest extends ApiTestBase {

  /** A queue of 2 attempts, no backoff, whose one message failed twice and died. */
  private String queueWithADeadStory() {
    String q =
        queue(
            "whatif",
            "maxAttempts",
            2,
            "backoff",
            java.util.Map.of("kind", "fixed", "cooldown", "0s"));
    enqueue(q, "t", 1);
    for (int attempt = 1; attempt <= 2; attempt++) {
      List<JsonNode> leased = lease(q, 1);
      assertThat(leased).hasSize(1);
      Response failed =
          api.post(
              "/v1/leases/" + leased.get(0).get("token").asText() + "/fail",
              "{\"reason\":\"handler_exception\",\"message\":\"boom\"}");
      assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    }
    assertThat(stats(q).get("dead").asInt()).isEqualTo(1);
    return q;
  }

  @Test
  void aDeadStory_replayedUnderMoreAttempts_assumesTheMissingOnesFail() {
    String q = queueWithADeadStory();
    Response r =
        api.post(
            "/v1/queues/" + q + "/what-if",
            "{\"since\":\"1h\",\"maxAttempts\":4,\"backoff\":{\"kind\":\"fixed\",\"cooldown\":\"1s\"}}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("replayed").asInt()).isEqualTo(1);
    assertThat(r.get("recorded").get("DEAD_ATTEMPTS").asInt()).isEqualTo(1);
    assertThat(r.get("candidate").get("DEAD_ATTEMPTS").asInt()).isEqualTo(1);
    assertThat(r.get("candidate").get("COMPLETED").asInt()).isZero();
    assertThat(r.get("assumed").asInt()).isEqualTo(1);
    assertThat(r.get("assumption").asText()).contains("assumed");
    assertThat(r.get("shift").get("count").asInt()).isZero();
  }

  @Test
  void badCandidates_areRefusedNamingTheField() {
    String q = queueWithADeadStory();
    Response zero = api.post("/v1/queues/" + q + "/what-if", "{\"maxAttempts\":0}");
    assertError(zero, 400, "INVALID_REQUEST");
    assertThat(zero.json().path("error").path("message").asText()).contains("maxAttempts");
    Response since =
        api.post("/v1/queues/" + q + "/what-if", "{\"maxAttempts\":3,\"since\":\"soon\"}");
    assertError(since, 400, "INVALID_REQUEST");
    assertError(
        api.post("/v1/queues/nowhere-" + q + "/what-if", "{\"maxAttempts\":3}"),
        404,
        "QUEUE_NOT_FOUND");
  }
}
