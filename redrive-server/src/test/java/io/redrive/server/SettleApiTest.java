package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code POST /v1/leases/settle}: an HTTP worker's group commit, any mix of kinds in one call, each
 * answered on its own (a lost lease is an answer, not an error); bad input changes nothing.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class SettleApiTest extends ApiTestBase {

  private static Map<String, Object> item(JsonNode leased, String action, Object... fields) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("token", leased.get("token").asText());
    m.put("action", action);
    for (int i = 0; i < fields.length; i += 2) {
      m.put((String) fields[i], fields[i + 1]);
    }
    return m;
  }

  private Response settle(List<Map<String, Object>> items) {
    return api.post("/v1/leases/settle", HttpApiClient.json(Map.of("settles", items)));
  }

  private JsonNode message(String id) {
    Response r = api.get("/v1/messages/" + id);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.json();
  }

  private static List<String> outcomes(JsonNode message) {
    List<String> out = new ArrayList<>();
    message.get("history").forEach(h -> out.add(h.get("outcome").asText()));
    return out;
  }

  @Test
  void allFourKinds_inOneCall_eachSettledAsItsSingleEndpointWould() {
    String q = queue("mix");
    enqueue(q, "t", 1, 2, 3, 4);
    List<JsonNode> m = lease(q, 4);

    Response r =
        settle(
            List.of(
                item(m.get(0), "complete"),
                item(m.get(1), "fail", "reason", "HANDLER_EXCEPTION", "message", "boom"),
                item(m.get(2), "abandon", "delay", "10s", "note", "busy"),
                item(m.get(3), "release")));

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode results = r.get("results");
    assertThat(results).hasSize(4);
    for (int i = 0; i < 4; i++) {
      assertThat(results.get(i).get("id").asText()).isEqualTo(m.get(i).get("id").asText());
      assertThat(results.get(i).get("lost").isNull()).as(results.get(i).toString()).isTrue();
    }
    assertThat(results.get(0).get("result").get("state").asText()).isEqualTo("COMPLETED");
    assertThat(results.get(1).get("result").get("state").asText()).isEqualTo("SCHEDULED");
    assertThat(results.get(2).get("result").get("state").asText()).isEqualTo("SCHEDULED");
    assertThat(results.get(3).get("result").get("state").asText()).isEqualTo("READY");
    assertThat(api.get("/v1/messages/" + m.get(0).get("id").asText()).status()).isEqualTo(404);
    JsonNode failed = message(m.get(1).get("id").asText());
    assertThat(outcomes(failed)).containsExactly("FAILED");
    assertThat(failed.get("history").get(0).get("failure").get("message").asText())
        .isEqualTo("boom");
    assertThat(outcomes(message(m.get(2).get("id").asText()))).containsExactly("ABANDONED");
    JsonNode released = message(m.get(3).get("id").asText());
    assertThat(outcomes(released)).containsExactly("RELEASED");
    assertThat(released.get("attempts").asInt()).isZero();
  }

  @Test
  void lostLeases_areAnswered_notThrown_andTheOthersSettle() {
    String q = queue("lost");
    enqueue(q, "t", 1, 2);
    List<JsonNode> m = lease(q, 2);
    String id = m.get(0).get("id").asText();
    String foreign = id + "." + "0123456789abcdef".repeat(2);
    String missing = "0000" + m.get(1).get("token").asText().substring(4);

    List<Map<String, Object>> items = new ArrayList<>();
    items.add(Map.of("token", foreign, "action", "complete"));
    items.add(Map.of("token", missing, "action", "release"));
    items.add(item(m.get(1), "complete"));
    items.add(item(m.get(1), "fail", "reason", "UNKNOWN"));
    Response r = settle(items);

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode results = r.get("results");
    assertThat(results.get(0).get("lost").asText()).isEqualTo("NOT_CURRENT");
    assertThat(results.get(0).get("result").isNull()).isTrue();
    assertThat(results.get(1).get("lost").asText()).isEqualTo("NOT_FOUND");
    assertThat(results.get(2).get("result").get("state").asText()).isEqualTo("COMPLETED");
    assertThat(results.get(3).get("lost").asText()).isEqualTo("DUPLICATE");
    assertThat(message(id).get("state").asText()).isEqualTo("LEASED");
  }

  @Test
  void completeRepeatedWithinTheWindow_isAnsweredRepeated() {
    String q = queue("again");
    enqueue(q, "t", 1);
    JsonNode m = lease(q, 1).get(0);
    assertThat(settle(List.of(item(m, "complete"))).status()).isEqualTo(200);

    Response again = settle(List.of(item(m, "complete")));

    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    JsonNode result = again.get("results").get(0).get("result");
    assertThat(result.get("state").asText()).isEqualTo("COMPLETED");
    assertThat(result.get("repeated").asBoolean()).isTrue();
  }

  @Test
  void badInput_namesTheItemAndField_andChangesNothing() {
    String q = queue("bad");
    enqueue(q, "t", 1);
    JsonNode m = lease(q, 1).get(0);
    String id = m.get("id").asText();

    assertError(
        settle(List.of(item(m, "complete"), item(m, "fail", "delay", "10s"))),
        400,
        "INVALID_REQUEST");
    Response foreignField = settle(List.of(item(m, "complete"), item(m, "fail", "delay", "10s")));
    assertThat(foreignField.json().path("error").path("message").asText())
        .contains("settles[1].delay");
    Response noReason = settle(List.of(item(m, "complete"), item(m, "fail")));
    assertError(noReason, 400, "INVALID_REQUEST");
    assertThat(noReason.json().path("error").path("message").asText())
        .contains("settles[1].reason");
    Response badAction = settle(List.of(item(m, "finish")));
    assertError(badAction, 400, "INVALID_REQUEST");
    assertThat(badAction.json().path("error").path("message").asText())
        .contains("settles[0].action");
    Response badToken = settle(List.of(Map.of("token", "garbage", "action", "complete")));
    assertError(badToken, 400, "INVALID_REQUEST");
    assertThat(badToken.json().path("error").path("message").asText()).contains("settles[0]");
    Response badDuration = settle(List.of(item(m, "abandon", "delay", "soon")));
    assertError(badDuration, 400, "INVALID_REQUEST");
    assertThat(badDuration.json().path("error").path("message").asText())
        .contains("settles[0].delay");
    Response assigned = settle(List.of(item(m, "complete"), item(m, "fail", "reason", "POISON")));
    assertError(assigned, 400, "INVALID_REQUEST");
    assertError(api.post("/v1/leases/settle", "{\"settles\":[]}"), 400, "INVALID_REQUEST");
    assertError(api.post("/v1/leases/settle", "{\"settles\":["), 400, "MALFORMED_JSON");

    JsonNode still = message(id);
    assertThat(still.get("state").asText()).isEqualTo("LEASED");
    assertThat(outcomes(still)).containsExactly("LEASED");
  }
}
