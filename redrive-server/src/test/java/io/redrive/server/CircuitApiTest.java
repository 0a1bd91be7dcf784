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
 * Circuit breakers over HTTP (docs/api.md, "Circuit breakers"), on both stores: a queue's {@code
 * circuit} is created, replaced and turned off; a failure's {@code dependency} opens its circuit;
 * the circuits are listed and opened and closed by hand; bad values are named 400s.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class CircuitApiTest extends ApiTestBase {

  @Test
  void circuit_isCreatedReplacedAndTurnedOff() {
    String q = queue("circuit", "circuit", Map.of("failures", 2, "waves", List.of(1, 3)));
    JsonNode c = api.get("/v1/queues/" + q).get("circuit");
    assertThat(c.get("failures").asInt()).isEqualTo(2);
    assertThat(c.get("window").asText()).isEqualTo("30s");
    assertThat(c.get("probeInterval").asText()).isEqualTo("10s");
    assertThat(c.get("waves").toString()).isEqualTo("[1,3]");
    assertThat(c.get("learn").asBoolean()).isFalse();

    Response replaced = api.patch("/v1/queues/" + q, "{\"circuit\":{\"window\":\"1m\"}}");
    assertThat(replaced.status()).as(replaced.toString()).isEqualTo(200);
    assertThat(replaced.get("circuit").get("failures").asInt()).isEqualTo(5);
    assertThat(replaced.get("circuit").get("window").asText()).isEqualTo("1m");

    Response off = api.patch("/v1/queues/" + q, "{\"circuit\":null}");
    assertThat(off.get("circuit").isNull()).isTrue();
    Response bad = api.patch("/v1/queues/" + q, "{\"circuit\":{\"failures\":0}}");
    assertError(bad, 400, "INVALID_REQUEST");
    assertThat(bad.toString()).contains("circuit.failures: must be between 1 and 10000, was 0");
  }

  @Test
  void failures_namingADependency_openItsCircuit_listedAndClosedByHand() {
    String q =
        queue(
            "smtp",
            "circuit",
            Map.of("failures", 2),
            "retry",
            Map.of("attempts", 9, "cooldown", "0s"));
    enqueue(q, "mail", 1, 2);
    for (JsonNode m : lease(q, 2)) {
      Response failed =
          api.post(
              "/v1/leases/" + m.get("token").asText() + "/fail",
              "{\"reason\":\"DEPENDENCY_FAILURE\",\"dependency\":\"smtp\"}");
      assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    }

    JsonNode circuits = api.get("/v1/queues/" + q + "/circuits").json();
    assertThat(circuits.get("queue").asText()).isEqualTo(q);
    JsonNode smtp = circuits.get("circuits").get(0);
    assertThat(smtp.get("dependency").asText()).isEqualTo("smtp");
    assertThat(smtp.get("state").asText()).isEqualTo("OPEN");
    assertThat(smtp.get("types").toString()).isEqualTo("[\"mail\"]");
    assertThat(smtp.get("history").get(0).get("by").asText()).isEqualTo("engine");
    assertThat(lease(q, 2)).as("held").isEmpty();

    Response closed = api.post("/v1/queues/" + q + "/circuits/smtp/close", "");
    assertThat(closed.status()).as(closed.toString()).isEqualTo(200);
    assertThat(closed.get("state").asText()).isEqualTo("CLOSED");
    assertThat(closed.get("changedBy").asText()).isEqualTo("operator");
    assertThat(lease(q, 2)).hasSize(2);
    Response opened = api.post("/v1/queues/" + q + "/circuits/smtp/open", "");
    assertThat(opened.get("state").asText()).isEqualTo("OPEN");
    assertThat(opened.get("nextProbeAt").isNull()).isTrue();
  }

  @Test
  void openByHand_queueWithoutCircuitBreaker_isA400() {
    String q = queue("plain");
    assertError(api.post("/v1/queues/" + q + "/circuits/smtp/open", ""), 400, "INVALID_REQUEST");
    assertThat(api.get("/v1/queues/" + q + "/circuits").get("circuits").size()).isZero();
  }
}
