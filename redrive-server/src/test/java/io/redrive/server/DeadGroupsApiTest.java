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
 * Dead-letter groups over HTTP: {@code GET /v1/dead-groups} and {@code
 * /v1/queues/{name}/dead-groups}, and the {@code fingerprint} filter of listing, retry, drop and
 * redrive.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class DeadGroupsApiTest extends ApiTestBase {
  private static final String TRACE =
      "java.lang.IllegalStateException: order %d failed\n"
          + "\tat com.shop.Billing.charge(Billing.java:%d)\n"
          + "\tat com.shop.Worker.handle(Worker.java:40)\n";

  /** Leases every ready message of {@code queue} and fails it for good with order numbers. */
  private void killAll(String queue, String message) {
    for (JsonNode m : lease(queue, 100)) {
      int n = m.get("payload").asInt();
      Response r =
          api.post(
              "/v1/leases/" + m.get("token").asText() + "/fail",
              HttpApiClient.json(
                  Map.of(
                      "reason",
                      "HANDLER_EXCEPTION",
                      "retryable",
                      false,
                      "message",
                      message.formatted(n),
                      "stackTrace",
                      TRACE.formatted(n, n))));
      assertThat(r.get("state").asText()).as(r.toString()).isEqualTo("DEAD");
    }
  }

  private List<JsonNode> groups(Response r) {
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    r.get("groups").forEach(out::add);
    return out;
  }

  @Test
  void deadGroups_ofQueue_countsByCauseWithItsPieces() {
    String q = queue("groups");
    enqueue(q, "charge", 17, 4242, 9);
    killAll(q, "order %d failed");
    enqueue(q, "charge", 5);
    killAll(q, "card %d declined by 'bank'");

    List<JsonNode> groups = groups(api.get("/v1/queues/" + q + "/dead-groups"));

    assertThat(groups).hasSize(2);
    JsonNode big = groups.get(0);
    assertThat(big.get("queue").asText()).isEqualTo(q);
    assertThat(big.get("count").asInt()).isEqualTo(3);
    assertThat(big.get("deadReason").asText()).isEqualTo("HANDLER_EXCEPTION");
    assertThat(big.get("causeReason").asText()).isEqualTo("HANDLER_EXCEPTION");
    assertThat(big.get("type").asText()).isEqualTo("charge");
    assertThat(big.get("exceptionClass").asText()).isEqualTo("java.lang.IllegalStateException");
    assertThat(big.get("pattern").asText()).isEqualTo("order <n> failed");
    assertThat(big.get("frames").get(0).asText()).isEqualTo("com.shop.Billing.charge");
    assertThat(big.get("fingerprint").asText()).matches("[0-9a-f]{16}");
    assertThat(big.get("sampleCause").get("message").asText()).isEqualTo("order 9 failed");
    assertThat(groups.get(1).get("pattern").asText()).isEqualTo("card <n> declined by <str>");
  }

  @Test
  void deadGroups_allQueuesAndPages_largestFirst() {
    String a = queue("groups-a");
    String b = queue("groups-b");
    enqueue(a, "charge", 1, 2);
    killAll(a, "order %d failed");
    enqueue(b, "charge", 3);
    killAll(b, "order %d failed");

    List<JsonNode> mine = new ArrayList<>();
    for (JsonNode g : groups(api.get("/v1/dead-groups?limit=1000"))) {
      if (g.get("queue").asText().equals(a) || g.get("queue").asText().equals(b)) {
        mine.add(g);
      }
    }
    Response onlyB = api.get("/v1/dead-groups?queue=" + b);
    Response page = api.get("/v1/queues/" + a + "/dead-groups?limit=1&offset=0");

    assertThat(mine).extracting(g -> g.get("queue").asText()).containsExactly(a, b);
    assertThat(mine.get(0).get("fingerprint")).isEqualTo(mine.get(1).get("fingerprint"));
    assertThat(groups(onlyB)).hasSize(1);
    assertThat(page.get("nextOffset").isNull()).isTrue();
    assertThat(groups(page)).hasSize(1);
  }

  @Test
  void fingerprintFilter_listRetryDropRedrive_actOnOneGroup() {
    String dlq = queue("groups-dlq");
    String q = queue("groups-src", "deadLetterQueue", dlq);
    enqueue(q, "charge", 1, 2);
    killAll(q, "order %d failed");
    enqueue(q, "charge", 3);
    killAll(q, "disk %d full");
    List<JsonNode> groups = groups(api.get("/v1/queues/" + dlq + "/dead-groups"));
    String order = groups.get(0).get("fingerprint").asText();
    String disk = groups.get(1).get("fingerprint").asText();

    Response listed = api.get("/v1/queues/" + dlq + "/messages?fingerprint=" + order);
    assertThat(listed.get("messages")).hasSize(2);

    Response dry =
        api.post(
            "/v1/queues/" + dlq + "/retry",
            "{\"fingerprint\":\"" + order + "\",\"dryRun\":true,\"countRemaining\":true}");
    assertThat(dry.get("retried")).hasSize(2);

    Response redriven =
        api.post("/v1/queues/" + dlq + "/redrive", "{\"fingerprint\":\"" + order + "\"}");
    assertThat(redriven.get("moves")).hasSize(2);
    assertThat(stats(q).get("ready").asInt()).isEqualTo(2);

    Response dropped =
        api.post("/v1/queues/" + dlq + "/drop", "{\"fingerprint\":\"" + disk + "\"}");
    assertThat(dropped.get("dropped")).hasSize(1);
    assertThat(stats(dlq).get("dead").asInt()).isZero();
  }

  @Test
  void listMessages_minAttempts_filtersByAttempts() {
    String q = queue("groups-min");
    enqueue(q, "charge", 1, 2);
    JsonNode first = lease(q, 1).get(0);
    api.post(
        "/v1/leases/" + first.get("token").asText() + "/fail",
        "{\"reason\":\"HANDLER_EXCEPTION\",\"retryAfter\":\"1h\"}");

    Response r = api.get("/v1/queues/" + q + "/messages?minAttempts=1&state=scheduled,ready");

    assertThat(r.get("messages")).hasSize(1);
    assertThat(r.get("messages").get(0).get("id").asText()).isEqualTo(first.get("id").asText());
  }

  @Test
  void badInput_isRefusedNamingTheField() {
    String q = queue("groups-bad");

    assertError(api.get("/v1/dead-groups?limit=0"), 400, "INVALID_REQUEST");
    assertThat(api.get("/v1/dead-groups?limit=0").body()).contains("limit");
    assertThat(api.get("/v1/dead-groups?offset=-1").body()).contains("offset");
    assertError(api.get("/v1/dead-groups?offset=x"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/dead-groups?queue=no-such-queue"), 404, "QUEUE_NOT_FOUND");
    assertError(api.get("/v1/queues/" + q + "/dead-groups?queue=" + q), 400, "UNKNOWN_FIELD");
    Response badKey = api.get("/v1/queues/" + q + "/messages?fingerprint=ABC");
    assertError(badKey, 400, "INVALID_REQUEST");
    assertThat(badKey.body()).contains("fingerprint");
    assertThat(api.get("/v1/queues/" + q + "/messages?minAttempts=-1").body())
        .contains("minAttempts");
    assertError(
        api.post("/v1/queues/" + q + "/retry", "{\"fingerprint\":\"nope\",\"dryRun\":true}"),
        400,
        "INVALID_REQUEST");
  }
}
