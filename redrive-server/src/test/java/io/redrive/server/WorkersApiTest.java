package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code GET /v1/workers} on both stores: who holds which leases now, and nothing once settled. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class WorkersApiTest extends ApiTestBase {
  private JsonNode workerIn(Response r, String worker) {
    for (JsonNode w : r.get("workers")) {
      if (w.get("worker").asText().equals(worker)) {
        return w;
      }
    }
    return null;
  }

  @Test
  void aWorkerHoldingLeases_isListedWithWhatItHolds_untilItSettles() {
    String q = queue("workers");
    enqueue(q, "resize", 1, 2);
    enqueue(q, "crop", 3);
    String worker = TestServers.unique("host-a");
    Response leased =
        api.post("/v1/queues/" + q + "/lease", "{\"worker\":\"" + worker + "\",\"max\":3}");
    assertThat(leased.status()).as(leased.toString()).isEqualTo(200);

    Response r = api.get("/v1/workers?queue=" + q);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode w = workerIn(r, worker);
    assertThat(w).as(r.toString()).isNotNull();
    assertThat(w.get("held").asInt()).isEqualTo(3);
    assertThat(w.get("expired").asInt()).isZero();
    assertThat(w.get("lastLeasedAt").asText()).isNotBlank();
    assertThat(w.get("leases").findValuesAsText("type")).containsExactly("crop", "resize");
    assertThat(w.get("leases").get(1).get("held").asInt()).isEqualTo(2);
    assertThat(workerIn(api.get("/v1/workers"), worker)).isNotNull();

    for (JsonNode m : leased.get("messages")) {
      api.post("/v1/leases/" + m.get("token").asText() + "/complete", "{}");
    }
    assertThat(workerIn(api.get("/v1/workers?queue=" + q), worker)).isNull();
  }

  @Test
  void unknownQueue_404() {
    assertError(api.get("/v1/workers?queue=no-such-queue-x"), 404, "QUEUE_NOT_FOUND");
  }
}
