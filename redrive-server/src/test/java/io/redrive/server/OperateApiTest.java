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

/** Operator endpoints: list, get, retry, drop, redrive, import. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class OperateApiTest extends ApiTestBase {

  /** Kills a message at once (non-retryable failure); returns its id as seen in the response. */
  private String kill(String queue, String type) {
    enqueue(queue, type, Map.of("t", type));
    JsonNode m = lease(queue, 1).get(0);
    Response r =
        api.post(
            "/v1/leases/" + m.get("token").asText() + "/fail",
            "{\"reason\":\"VALIDATION_FAILURE\",\"message\":\"bad " + type + "\"}");
    assertThat(r.get("state").asText()).isEqualTo("DEAD");
    return m.get("id").asText();
  }

  @Test
  void listMessages_filtersAndPages() {
    String q = queue("list");
    enqueue(q, "a", 1, 2, 3);
    String dead = kill(q, "b");
    Response all = api.get("/v1/queues/" + q + "/messages");
    assertThat(all.status()).isEqualTo(200);
    assertThat(all.get("messages")).hasSize(4);
    assertThat(all.get("messages").get(0).has("history")).isFalse();
    assertThat(all.get("next").isNull()).isTrue();
    Response deadOnly = api.get("/v1/queues/" + q + "/messages?state=dead");
    assertThat(deadOnly.get("messages")).hasSize(1);
    assertThat(deadOnly.get("messages").get(0).get("id").asText()).isEqualTo(dead);
    assertThat(deadOnly.get("messages").get(0).get("lastError").get("reason").asText())
        .isEqualTo("VALIDATION_FAILURE");
    assertThat(api.get("/v1/queues/" + q + "/messages?state=dead&state=ready").get("messages"))
        .hasSize(4);
    assertThat(api.get("/v1/queues/" + q + "/messages?type=a").get("messages")).hasSize(3);
    assertThat(
            api.get("/v1/queues/" + q + "/messages?deadReason=VALIDATION_FAILURE").get("messages"))
        .hasSize(1);
    Response page1 = api.get("/v1/queues/" + q + "/messages?limit=2");
    assertThat(page1.get("messages")).hasSize(2);
    String next = page1.get("next").asText();
    Response page2 = api.get("/v1/queues/" + q + "/messages?limit=2&after=" + next);
    assertThat(page2.get("messages")).hasSize(2);
    assertThat(page2.get("messages").get(0).get("id").asText())
        .isNotEqualTo(page1.get("messages").get(0).get("id").asText());
  }

  @Test
  void getMessage_byIdAndUniquePrefix_withHistory() {
    String q = queue("get");
    String id = kill(q, "x");
    Response full = api.get("/v1/messages/" + id);
    assertThat(full.status()).isEqualTo(200);
    JsonNode m = full.json();
    assertThat(m.get("id").asText()).isEqualTo(id);
    assertThat(m.get("queue").asText()).isEqualTo(q);
    assertThat(m.get("state").asText()).isEqualTo("DEAD");
    assertThat(m.get("attempts").asInt()).isEqualTo(1);
    assertThat(m.get("deadReason").asText()).isEqualTo("VALIDATION_FAILURE");
    assertThat(m.get("deadAt").asText()).isNotBlank();
    assertThat(m.get("history")).hasSize(1);
    JsonNode entry = m.get("history").get(0);
    assertThat(entry.get("outcome").asText()).isEqualTo("FAILED");
    assertThat(entry.get("worker").asText()).isEqualTo("t");
    assertThat(entry.get("failure").get("message").asText()).isEqualTo("bad x");
    for (String field :
        List.of(
            "headers",
            "stream",
            "maxAttempts",
            "progress",
            "enqueuedAt",
            "visibleAt",
            "expireAt",
            "leasedBy",
            "sourceId",
            "sourceQueue",
            "dedupeKey",
            "lastError")) {
      assertThat(m.has(field)).as(field).isTrue();
    }
    Response byPrefix = api.get("/v1/messages/" + id.substring(0, 30));
    assertThat(byPrefix.status()).isEqualTo(200);
    assertThat(byPrefix.get("id").asText()).isEqualTo(id);
    assertError(
        api.get("/v1/messages/00000000-0000-7000-8000-000000000000"), 404, "MESSAGE_NOT_FOUND");
  }

  @Test
  void retryOne_deadBackToReady_andNotDeadConflict() {
    String q = queue("retry1");
    String id = kill(q, "x");
    Response r = api.post("/v1/messages/" + id + "/retry");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("state").asText()).isEqualTo("READY");
    assertThat(r.get("attempts").asInt()).isZero();
    assertThat(r.get("history").get(r.get("history").size() - 1).get("outcome").asText())
        .isEqualTo("RETRIED");
    assertError(api.post("/v1/messages/" + id + "/retry"), 409, "NOT_DEAD");
  }

  @Test
  void retryMany_reportsRetriedSkippedNotFound() {
    String q = queue("retryN");
    String dead = kill(q, "x");
    String ready = enqueue(q, "y", 1).get(0);
    String missing = "00000000-0000-7000-8000-00000000abcd";
    Response r =
        api.post(
            "/v1/messages/retry", HttpApiClient.json(Map.of("ids", List.of(dead, ready, missing))));
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(texts(r.get("retried"))).containsExactly(dead);
    assertThat(texts(r.get("skipped"))).containsExactly(ready);
    assertThat(texts(r.get("notFound"))).containsExactly(missing);
  }

  @Test
  void deleteMessage_dropsIt_then404() {
    String q = queue("delmsg");
    String id = enqueue(q, "t", 1).get(0);
    Response r = api.delete("/v1/messages/" + id);
    assertThat(r.status()).isEqualTo(204);
    assertError(api.delete("/v1/messages/" + id), 404, "MESSAGE_NOT_FOUND");
    assertThat(stats(q).get("total").asInt()).isZero();
  }

  @Test
  void dropMany_byIds() {
    String q = queue("dropN");
    List<String> ids = enqueue(q, "t", 1, 2);
    String missing = "00000000-0000-7000-8000-00000000dcba";
    Response r =
        api.post(
            "/v1/messages/drop", HttpApiClient.json(Map.of("ids", List.of(ids.get(0), missing))));
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(texts(r.get("dropped"))).containsExactly(ids.get(0));
    assertThat(texts(r.get("notFound"))).containsExactly(missing);
    assertThat(stats(q).get("total").asInt()).isEqualTo(1);
  }

  @Test
  void dropMatching_byStateAndReason() {
    String q = queue("dropF");
    enqueue(q, "keep", 1);
    String dead = kill(q, "gone");
    Response r =
        api.post(
            "/v1/queues/" + q + "/drop",
            "{\"states\":[\"DEAD\"],\"deadReason\":\"VALIDATION_FAILURE\",\"limit\":10}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(texts(r.get("dropped"))).containsExactly(dead);
    assertThat(stats(q).get("total").asInt()).isEqualTo(1);
  }

  @Test
  void redrive_dryRunThenMoveBackToSource() {
    String dlq = queue("rd-dlq");
    String q = queue("rd", "deadLetterQueue", dlq);
    kill(q, "x");
    kill(q, "y");
    Response dry = api.post("/v1/queues/" + dlq + "/redrive", "{\"dryRun\":true}");
    assertThat(dry.status()).as(dry.toString()).isEqualTo(200);
    assertThat(dry.get("dryRun").asBoolean()).isTrue();
    assertThat(dry.get("count").asInt()).isEqualTo(2);
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(2);
    Response r = api.post("/v1/queues/" + dlq + "/redrive", "{\"types\":[\"x\"],\"limit\":100}");
    assertThat(r.get("count").asInt()).isEqualTo(1);
    JsonNode move = r.get("moves").get(0);
    assertThat(move.get("toQueue").asText()).isEqualTo(q);
    assertThat(move.get("deadLetterId").asText()).isNotBlank();
    assertThat(r.get("skipped")).isEmpty();
    assertThat(stats(q).get("ready").asInt()).isEqualTo(1);
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);
  }

  @Test
  void import_keyedBySourceId() {
    String q = queue("import");
    String body =
        "{\"messages\":[{\"sourceId\":\"s-1\",\"sourceQueue\":\"old\",\"type\":\"t\",\"payload\":{\"a\":1},"
            + "\"headers\":{\"h\":\"v\"},\"stream\":\"st\",\"dead\":true},{\"sourceId\":\"s-2\",\"type\":\"t\"}]}";
    Response r = api.post("/v1/queues/" + q + "/import", body);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("imported")).hasSize(2);
    assertThat(r.get("duplicates")).isEmpty();
    Response again = api.post("/v1/queues/" + q + "/import", body);
    assertThat(again.get("imported")).isEmpty();
    assertThat(texts(again.get("duplicates"))).containsExactlyInAnyOrder("s-1", "s-2");
    JsonNode s = stats(q);
    assertThat(s.get("dead").asInt()).isEqualTo(1);
    assertThat(s.get("ready").asInt()).isEqualTo(1);
  }

  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
