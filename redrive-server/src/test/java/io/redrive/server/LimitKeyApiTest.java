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
 * A message's priority and limit key over HTTP beyond the enqueue (docs/api.md), on both stores:
 * kept by a completed message its queue keeps, by an import, in a lease answer and by a schedule's
 * message.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class LimitKeyApiTest extends ApiTestBase {
  private List<String> enqueueWith(String queue, List<Map<String, Object>> messages) {
    Response r =
        api.post(
            "/v1/queues/" + queue + "/messages", HttpApiClient.json(Map.of("messages", messages)));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return r.get("results").findValuesAsText("id");
  }

  @Test
  void aLeaseAnswer_carriesTheLimitKey_nullWhenNone() {
    String q = queue("lk");
    enqueueWith(
        q,
        List.of(Map.of("type", "t", "limitKey", "tenant-7", "priority", 5), Map.of("type", "t")));

    List<JsonNode> leased = lease(q, 2);
    assertThat(leased.get(0).get("limitKey").asText()).isEqualTo("tenant-7");
    assertThat(leased.get(1).has("limitKey")).as("present, as null").isTrue();
    assertThat(leased.get(1).get("limitKey").isNull()).isTrue();
  }

  @Test
  void anImport_keepsPriorityAndLimitKey_andABadPriorityIsANamed400() {
    String q = queue("imp", "defaultPriority", 2);
    Response r =
        api.post(
            "/v1/queues/" + q + "/import",
            "{\"messages\":[{\"sourceId\":\"a\",\"type\":\"t\"},"
                + "{\"sourceId\":\"b\",\"type\":\"t\",\"priority\":8,\"limitKey\":\"k\"}]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode imported = r.get("imported");
    JsonNode plain = api.get("/v1/messages/" + imported.get(0).asText()).json();
    JsonNode urgent = api.get("/v1/messages/" + imported.get(1).asText()).json();
    assertThat(plain.get("priority").asInt()).isEqualTo(2);
    assertThat(urgent.get("priority").asInt()).isEqualTo(8);
    assertThat(urgent.get("limitKey").asText()).isEqualTo("k");

    Response bad =
        api.post(
            "/v1/queues/" + q + "/import",
            "{\"messages\":[{\"sourceId\":\"c\",\"type\":\"t\",\"priority\":10}]}");
    assertThat(bad.status()).as(bad.toString()).isEqualTo(400);
    assertThat(bad.json().path("error").path("message").asText()).contains("messages[0].priority");
    assertThat(stats(q).get("total").asInt()).isEqualTo(2);
  }

  @Test
  void aKeptCompletedMessage_showsItsPriorityAndLimitKey() {
    String q = queue("kept", "completedRetention", "1h");
    String id =
        enqueueWith(q, List.of(Map.of("type", "t", "priority", 6, "limitKey", "host-1"))).get(0);
    JsonNode leased = lease(q, 1).get(0);
    Response done = api.post("/v1/leases/" + leased.get("token").asText() + "/complete", "{}");
    assertThat(done.status()).as(done.toString()).isEqualTo(200);

    JsonNode m = api.get("/v1/messages/" + id).json();
    assertThat(m.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(m.get("priority").asInt()).isEqualTo(6);
    assertThat(m.get("limitKey").asText()).isEqualTo("host-1");
  }

  @Test
  void aSchedulesMessage_carriesItsPriorityAndLimitKey() {
    String q = queue("sched");
    String name = TestServers.unique("with-key");
    Response saved =
        api.send(
            "PUT",
            "/v1/schedules/" + name,
            "{\"every\":\"1h\",\"queue\":\""
                + q
                + "\",\"type\":\"t\",\"priority\":4,"
                + "\"limitKey\":\"tenant-2\"}");
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    Response fired = api.post("/v1/schedules/" + name + "/trigger");
    assertThat(fired.status()).as(fired.toString()).isEqualTo(200);

    JsonNode m = api.get("/v1/messages/" + fired.get("producedId").asText()).json();
    assertThat(m.get("priority").asInt()).isEqualTo(4);
    assertThat(m.get("limitKey").asText()).isEqualTo("tenant-2");
    assertThat(api.delete("/v1/schedules/" + name).status()).isEqualTo(204);
  }
}
