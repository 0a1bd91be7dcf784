package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code GET /v1/queues/{name}/workers} lists the workers whose lease calls were recorded, with the
 * types they named, and the queue's unserved types; {@code /ready} carries the raised unserved
 * types and stays ready (docs/api.md, "Live workers and unserved types").
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class QueueWorkersApiTest extends ApiTestBase {

  @Test
  void workers_listsLeaseCallsWithTheirTypes_untypedAsEmpty() {
    String q = queue("live");
    api.post(
        "/v1/queues/" + q + "/lease", "{\"worker\":\"py-1\",\"max\":1,\"types\":[\"b\",\"a\"]}");
    api.post("/v1/queues/" + q + "/lease", "{\"worker\":\"go-1\",\"max\":1}");

    Response r = api.get("/v1/queues/" + q + "/workers");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode body = r.json();
    assertThat(body.get("queue").asText()).isEqualTo(q);
    assertThat(body.get("liveWithin").asText()).isEqualTo("PT5M");
    assertThat(body.get("workers")).hasSize(2);
    assertThat(body.get("workers").get(0).get("worker").asText()).isEqualTo("go-1");
    assertThat(body.get("workers").get(0).get("types")).isEmpty();
    assertThat(body.get("workers").get(1).get("worker").asText()).isEqualTo("py-1");
    assertThat(body.get("workers").get(1).get("types").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(body.get("workers").get(1).has("lastLeaseAt")).isTrue();
    assertThat(body.get("unserved")).isEmpty();
  }

  @Test
  void workers_unknownQueue_404() {
    Response r = api.get("/v1/queues/no-such-queue-here/workers");
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.toString()).contains("QUEUE_NOT_FOUND");
  }

  @Test
  void ready_listsUnservedTypesAndStaysReady() {
    Response r = api.get("/ready");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.get("status").asText()).isEqualTo("ready");
    assertThat(r.json().get("unservedTypes").isArray()).isTrue();
  }
}
