package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code /v1/objectives} on both stores: put, get with status, list, bad input, delete. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ObjectiveApiTest extends ApiTestBase {

  private static JsonNode named(Response list, String name) {
    for (JsonNode o : list.get("objectives")) {
      if (o.get("name").asText().equals(name)) {
        return o;
      }
    }
    return null;
  }

  @Test
  void anObjective_isPutCountedListedAndDeleted() {
    String q = queue("slo");
    String name = TestServers.unique("start");
    String path = "/v1/objectives/" + name;
    Response put =
        api.send(
            "PUT",
            path,
            "{\"queue\":\""
                + q
                + "\",\"kind\":\"latency\",\"target\":0.95,\"bound\":\"1m\",\"window\":\"1h\"}");
    assertThat(put.status()).as(put.toString()).isEqualTo(200);
    assertThat(put.get("kind").asText()).isEqualTo("LATENCY");
    assertThat(put.get("bound").asText()).isEqualTo("1m");
    assertThat(put.get("compliance").isNull()).isTrue();

    enqueue(q, "t", 1, 2);
    assertThat(lease(q, 2)).hasSize(2);

    JsonNode listed = named(api.get("/v1/objectives"), name);
    assertThat(listed).isNotNull();
    assertThat(listed.get("within").asLong()).isEqualTo(2);
    assertThat(listed.get("beyond").asLong()).isZero();
    assertThat(listed.get("compliance").asDouble()).isEqualTo(1.0);
    assertThat(listed.get("breached").asBoolean()).isFalse();
    assertThat(listed.get("burnRateShort").asDouble()).isZero();
    assertThat(listed.get("budgetRemaining").asDouble()).isEqualTo(1.0);
    assertThat(listed.get("exhaustionSeconds").isNull()).isTrue();
    assertThat(api.get(path).get("queue").asText()).isEqualTo(q);

    // A scrape refreshes gauges older than 5 s.
    String tags = "objective=\"" + name + "\",queue=\"" + q + "\"";
    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () ->
                assertThat(api.get("/metrics").body())
                    .contains("redrive_objective_compliance{" + tags + "} 1.0")
                    .contains("redrive_objective_budget_remaining{" + tags + "} 1.0")
                    .contains("redrive_objective_burn_rate{" + tags + ",window=\"5m\"} 0.0"));

    assertThat(api.delete(path).status()).isEqualTo(204);
    assertError(api.get(path), 404, "OBJECTIVE_NOT_FOUND");
    assertError(api.delete(path), 404, "OBJECTIVE_NOT_FOUND");
  }

  @Test
  void badObjectives_areRefusedNamingTheField() {
    String q = queue("slo");
    String path = "/v1/objectives/" + TestServers.unique("bad");
    Response target =
        api.send(
            "PUT",
            path,
            "{\"queue\":\"" + q + "\",\"kind\":\"age\",\"target\":95,\"bound\":\"5m\"}");
    assertError(target, 400, "INVALID_REQUEST");
    assertThat(target.json().path("error").path("message").asText()).contains("target");
    Response kind =
        api.send(
            "PUT",
            path,
            "{\"queue\":\"" + q + "\",\"kind\":\"fast\",\"target\":0.9,\"bound\":\"5m\"}");
    assertError(kind, 400, "INVALID_REQUEST");
    assertThat(kind.json().path("error").path("message").asText()).contains("kind");
    assertError(api.get(path), 404, "OBJECTIVE_NOT_FOUND");
  }
}
