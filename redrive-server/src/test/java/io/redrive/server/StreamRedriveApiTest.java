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
 * {@code POST /v1/queues/{name}/redrive} with a stream (docs/api.md, "Redrive and stream order"):
 * {@code position} and the {@code streams} answer, also for a dry run.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class StreamRedriveApiTest extends ApiTestBase {

  private List<String> inStream(String queue, int... ns) {
    List<Object> messages = new ArrayList<>();
    for (int n : ns) {
      messages.add(Map.of("type", "t", "stream", "s-1", "payload", Map.of("n", n)));
    }
    Response r =
        api.post(
            "/v1/queues/" + queue + "/messages", HttpApiClient.json(Map.of("messages", messages)));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    List<String> ids = new ArrayList<>();
    r.get("results").forEach(n -> ids.add(n.get("id").asText()));
    return ids;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void redrive_position_dryRunAnswersTheOrder_thenTheRedriveRestoresIt() {
    String dlq = queue("srd-dlq");
    String q = queue("srd", "deadLetterQueue", dlq);
    List<String> ids = inStream(q, 1, 2, 3);
    JsonNode head = lease(q, 1).get(0);
    assertThat(head.get("id").asText()).isEqualTo(ids.get(0));
    Response failed =
        api.post(
            "/v1/leases/" + head.get("token").asText() + "/fail",
            "{\"reason\":\"VALIDATION_FAILURE\",\"message\":\"bad\"}");
    assertThat(failed.get("state").asText()).isEqualTo("DEAD");
    String copy =
        api.get("/v1/queues/" + dlq + "/messages").get("messages").get(0).get("id").asText();

    Response end =
        api.post("/v1/queues/" + dlq + "/redrive", "{\"dryRun\":true,\"position\":\"end\"}");
    assertThat(end.status()).as(end.toString()).isEqualTo(200);
    JsonNode order = end.get("streams").get(0);
    assertThat(order.get("queue").asText()).isEqualTo(q);
    assertThat(order.get("stream").asText()).isEqualTo("s-1");
    assertThat(texts(order.get("ids"))).containsExactly(ids.get(1), ids.get(2), copy);
    assertThat(texts(order.get("redriven"))).containsExactly(copy);
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);

    Response bad = api.post("/v1/queues/" + dlq + "/redrive", "{\"position\":\"middle\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.toString()).contains("position");
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);

    Response done = api.post("/v1/queues/" + dlq + "/redrive", "{}");
    assertThat(done.status()).as(done.toString()).isEqualTo(200);
    assertThat(texts(done.get("streams").get(0).get("ids")))
        .containsExactly(copy, ids.get(1), ids.get(2));
    assertThat(lease(q, 1).get(0).get("id").asText()).isEqualTo(copy);
  }
}
