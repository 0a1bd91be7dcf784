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
 * Any id finds its message (docs/api.md, "Lineage"), on both stores: the id an enqueue returned
 * leads to the message's dead-letter copy, through a redrive and a second death, and a copy's id
 * leads back; the 404 for a moved message says where it is now.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class LineageApiTest extends ApiTestBase {
  /** Leases the one message of {@code queue} and fails it for good; returns its id. */
  private String killOne(String queue) {
    JsonNode m = lease(queue, 1).get(0);
    Response r =
        api.post(
            "/v1/leases/" + m.get("token").asText() + "/fail",
            "{\"reason\":\"VALIDATION_FAILURE\",\"message\":\"bad\",\"retryable\":false}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return m.get("id").asText();
  }

  private static List<String> ids(Response lineage) {
    List<String> ids = new ArrayList<>();
    lineage.get("links").forEach(l -> ids.add(l.get("id").asText()));
    return ids;
  }

  private String onlyMessage(String queue) {
    Response page = api.get("/v1/queues/" + queue + "/messages");
    assertThat(page.get("messages").size()).as(page.toString()).isOne();
    return page.get("messages").get(0).get("id").asText();
  }

  @Test
  void theEnqueuedId_findsItsDeadLetterCopy_throughARedriveAndASecondDeath() {
    String dlq = queue("lin-dlq");
    String q = queue("lin", "deadLetterQueue", dlq);
    String id = enqueue(q, "charge", Map.of("order", 42)).get(0);
    assertThat(killOne(q)).isEqualTo(id);
    String copy = onlyMessage(dlq);

    Response gone = api.get("/v1/messages/" + id);
    assertError(gone, 404, "MESSAGE_NOT_FOUND");
    assertThat(gone.json().path("error").path("message").asText())
        .contains(copy)
        .contains(dlq)
        .contains("/lineage");

    Response lineage = api.get("/v1/messages/" + id + "/lineage");
    assertThat(lineage.status()).as(lineage.toString()).isEqualTo(200);
    assertThat(ids(lineage)).containsExactly(id, copy);
    assertThat(lineage.get("current").asText()).isEqualTo(copy);
    assertThat(lineage.get("links").get(0).get("state").isNull()).isTrue();
    assertThat(lineage.get("links").get(0).get("queue").asText()).isEqualTo(q);
    assertThat(lineage.get("links").get(1).get("state").asText()).isEqualTo("DEAD");

    Response redriven = api.post("/v1/queues/" + dlq + "/redrive", "{}");
    assertThat(redriven.status()).as(redriven.toString()).isEqualTo(200);
    assertThat(killOne(q)).isEqualTo(copy);
    String second = onlyMessage(dlq);

    for (String asked : List.of(id, copy, second)) {
      Response l = api.get("/v1/messages/" + asked + "/lineage");
      assertThat(ids(l)).as(asked).containsExactly(id, copy, second);
      assertThat(l.get("current").asText()).as(asked).isEqualTo(second);
    }
    assertThat(api.get("/v1/messages/" + second).get("sourceId").asText()).isEqualTo(copy);
  }

  @Test
  void anUnknownId_404_bothWays() {
    String unknown = "01ffffff-ffff-7fff-8fff-ffffffffffff";
    assertError(api.get("/v1/messages/" + unknown + "/lineage"), 404, "MESSAGE_NOT_FOUND");
    Response r = api.get("/v1/messages/" + unknown);
    assertError(r, 404, "MESSAGE_NOT_FOUND");
    assertThat(r.json().path("error").path("message").asText()).doesNotContain("moved");
  }

  @Test
  void aLiveMessage_isItsOwnStory() {
    String q = queue("lin-live");
    String id = enqueue(q, "t", 1).get(0);
    Response l = api.get("/v1/messages/" + id + "/lineage");
    assertThat(ids(l)).containsExactly(id);
    assertThat(l.get("current").asText()).isEqualTo(id);
    assertThat(l.get("links").get(0).get("state").asText()).isEqualTo("READY");
  }

  @Test
  void search_findsByIdMovedIdAndDedupeKey() {
    String dlq = queue("srch-dlq");
    String q = queue("srch", "deadLetterQueue", dlq);
    Response keyed =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"email\",\"dedupeKey\":\"order-"
                + q
                + "\",\"payload\":1}]}");
    String keyedId = keyed.get("results").get(0).get("id").asText();
    Response byKey = api.get("/v1/search?q=order-" + q);
    assertThat(byKey.status()).as(byKey.toString()).isEqualTo(200);
    assertThat(byKey.get("hits").get(0).get("match").asText()).isEqualTo("DEDUPE_KEY");
    assertThat(byKey.get("hits").get(0).get("id").asText()).isEqualTo(keyedId);

    assertThat(killOne(q)).isEqualTo(keyedId);
    String copy = onlyMessage(dlq);
    Response moved = api.get("/v1/search?q=" + keyedId);
    assertThat(moved.get("hits").size()).as(moved.toString()).isOne();
    assertThat(moved.get("hits").get(0).get("match").asText()).isEqualTo("MOVED");
    assertThat(moved.get("hits").get(0).get("id").asText()).isEqualTo(copy);
    assertThat(moved.get("hits").get(0).get("queue").asText()).isEqualTo(dlq);

    Response exact = api.get("/v1/search?q=" + copy);
    assertThat(exact.get("hits").get(0).get("match").asText()).isEqualTo("ID");
    assertThat(api.get("/v1/search?q=nothing-like-it-" + q).get("hits").size()).isZero();
    assertError(api.get("/v1/search"), 400, "INVALID_REQUEST");
  }
}
