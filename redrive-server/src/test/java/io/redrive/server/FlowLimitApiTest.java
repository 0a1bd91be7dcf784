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
 * Flow limits over HTTP (docs/api.md, "Flow limits"), on both stores: a queue's {@code limits} are
 * created, merged and removed; a message's {@code limitKey} is taken and shown and the per-key cap
 * holds; a consumer's slow-down refunds and holds the key; bad values are named 400s.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class FlowLimitApiTest extends ApiTestBase {

  private List<String> enqueueKeyed(String q, String key, int count) {
    List<Object> messages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      messages.add(Map.of("type", "t", "payload", i, "limitKey", key));
    }
    Response r =
        api.post("/v1/queues/" + q + "/messages", HttpApiClient.json(Map.of("messages", messages)));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    List<String> ids = new ArrayList<>();
    r.get("results").forEach(n -> ids.add(n.get("id").asText()));
    return ids;
  }

  @Test
  void limits_areCreatedMergedAndRemoved() {
    String q = queue("limits", "limits", Map.of("maxRunning", 10, "rate", "100/1m"));
    JsonNode limits = api.get("/v1/queues/" + q).get("limits");
    assertThat(limits.get("maxRunning").asInt()).isEqualTo(10);
    assertThat(limits.get("rate").asText()).isEqualTo("100/1m");
    assertThat(limits.get("maxRunningPerKey").isNull()).isTrue();

    Response merged =
        api.patch(
            "/v1/queues/" + q, "{\"limits\":{\"maxRunningPerKey\":2,\"ratePerKey\":\"10/1s\"}}");
    assertThat(merged.status()).as(merged.toString()).isEqualTo(200);
    assertThat(merged.get("limits").get("maxRunning").asInt()).isEqualTo(10);
    assertThat(merged.get("limits").get("maxRunningPerKey").asInt()).isEqualTo(2);
    assertThat(merged.get("limits").get("ratePerKey").asText()).isEqualTo("10/1s");

    Response cleared = api.patch("/v1/queues/" + q, "{\"limits\":null}");
    assertThat(cleared.status()).as(cleared.toString()).isEqualTo(200);
    assertThat(cleared.get("limits").isNull()).isTrue();
  }

  @Test
  void badLimits_areNamed_andChangeNothing() {
    String q = queue("badlimits", "limits", Map.of("maxRunning", 3));
    Response zero = api.patch("/v1/queues/" + q, "{\"limits\":{\"maxRunning\":0}}");
    assertError(zero, 400, "INVALID_REQUEST");
    assertThat(zero.json().path("error").path("message").asText()).contains("maxRunning");
    Response rate = api.patch("/v1/queues/" + q, "{\"limits\":{\"rate\":\"fast\"}}");
    assertError(rate, 400, "INVALID_REQUEST");
    assertThat(rate.json().path("error").path("message").asText())
        .contains("limits.rate: must be leases/period such as \"100/1m\", was \"fast\"");
    assertThat(api.get("/v1/queues/" + q).get("limits").get("maxRunning").asInt()).isEqualTo(3);
  }

  @Test
  void limitKey_isShown_andThePerKeyCapHolds_andASlowDownHoldsTheKey() {
    String q = queue("keyed", "limits", Map.of("maxRunningPerKey", 1));
    String first = enqueueKeyed(q, "tenant-1", 2).get(0);
    enqueueKeyed(q, "tenant-2", 1);
    assertThat(api.get("/v1/messages/" + first).get("limitKey").asText()).isEqualTo("tenant-1");

    List<JsonNode> leased = lease(q, 10);
    assertThat(leased).hasSize(2);
    JsonNode one =
        leased.stream().filter(m -> m.get("id").asText().equals(first)).findFirst().orElseThrow();
    Response slowed =
        api.post("/v1/leases/" + one.get("token").asText() + "/abandon", "{\"slowDown\":\"1h\"}");
    assertThat(slowed.status()).as(slowed.toString()).isEqualTo(200);
    Response m = api.get("/v1/messages/" + first);
    assertThat(m.get("attempts").asInt()).isZero();
    JsonNode history = m.get("history");
    assertThat(history.get(history.size() - 1).get("note").asText())
        .startsWith("slowed down: held key tenant-1 for 1h");
    assertThat(lease(q, 10)).as("tenant-1 held, tenant-2 at its cap").isEmpty();

    Response mixed =
        api.post(
            "/v1/leases/" + leased.get(1).get("token").asText() + "/abandon",
            "{\"slowDown\":\"1s\",\"refund\":true}");
    assertError(mixed, 400, "INVALID_REQUEST");
  }
}
