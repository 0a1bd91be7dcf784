package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Priorities over HTTP (docs/api.md), on both stores: a message's {@code priority} is enqueued
 * (alone and in a batch), shown in the message JSON and decides the lease order; a queue's {@code
 * defaultPriority} and {@code priorityAging} are created, read and merged by PATCH; bad values are
 * named 400s that change nothing.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class PriorityApiTest extends ApiTestBase {
  private List<String> enqueueWith(String queue, List<Map<String, Object>> messages) {
    Response r =
        api.post(
            "/v1/queues/" + queue + "/messages", HttpApiClient.json(Map.of("messages", messages)));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return r.get("results").findValuesAsText("id");
  }

  @Test
  void aBatchWithPriorities_isLeasedHighestFirst_andShowsThem() {
    String q = queue("prio", "defaultPriority", 3);
    List<String> ids =
        enqueueWith(
            q,
            List.of(
                Map.of("type", "t", "priority", 0),
                Map.of("type", "t"),
                Map.of("type", "t", "priority", 9)));

    List<JsonNode> leased = lease(q, 3);
    assertThat(leased.stream().map(m -> m.get("id").asText()))
        .containsExactly(ids.get(2), ids.get(1), ids.get(0));
    assertThat(leased.stream().map(m -> m.get("priority").asInt())).containsExactly(9, 3, 0);
    assertThat(api.get("/v1/messages/" + ids.get(1)).get("priority").asInt()).isEqualTo(3);
    assertThat(api.get("/v1/messages/" + ids.get(2)).get("priority").asInt()).isEqualTo(9);
  }

  @Test
  void queueSettings_areCreatedReadAndMerged() {
    String q = queue("settings", "defaultPriority", 5, "priorityAging", "2m");
    JsonNode created = api.get("/v1/queues/" + q).json();
    assertThat(created.get("defaultPriority").asInt()).isEqualTo(5);
    assertThat(created.get("priorityAging").asText()).isEqualTo("2m");

    Response patched = api.patch("/v1/queues/" + q, "{\"defaultPriority\":1}");
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
    assertThat(patched.get("defaultPriority").asInt()).isEqualTo(1);
    assertThat(patched.get("priorityAging").asText()).isEqualTo("2m");

    Response aged = api.patch("/v1/queues/" + q, "{\"priorityAging\":\"1h\"}");
    assertThat(aged.get("defaultPriority").asInt()).isEqualTo(1);
    assertThat(aged.get("priorityAging").asText()).isEqualTo("1h");

    String plain = queue("plain");
    JsonNode defaults = api.get("/v1/queues/" + plain).json();
    assertThat(defaults.get("defaultPriority").asInt()).isZero();
    assertThat(defaults.get("priorityAging").asText()).isEqualTo("1m");
  }

  @Test
  void badValues_areNamed400sThatChangeNothing() {
    String q = queue("bad");
    Response r =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"t\"},{\"type\":\"t\",\"priority\":10}]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(400);
    assertThat(r.json().path("error").path("message").asText())
        .contains("messages[1].priority")
        .contains("10");
    assertThat(stats(q).get("total").asInt()).isZero();

    for (String body :
        List.of(
            "{\"defaultPriority\":-1}",
            "{\"defaultPriority\":10}",
            "{\"priorityAging\":\"500ms\"}",
            "{\"priorityAging\":\"2d\"}")) {
      Response p = api.patch("/v1/queues/" + q, body);
      assertThat(p.status()).as(body + " " + p).isEqualTo(400);
      assertThat(p.json().path("error").path("message").asText())
          .as(body)
          .containsAnyOf("defaultPriority", "priorityAging");
    }
    JsonNode after = api.get("/v1/queues/" + q).json();
    assertThat(after.get("defaultPriority").asInt()).isZero();
    assertThat(after.get("priorityAging").asText()).isEqualTo("1m");
  }
}
