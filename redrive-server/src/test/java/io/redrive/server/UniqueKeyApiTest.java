package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Enqueue with {@code uniqueKey}, {@code onDuplicate} and {@code debounce} over HTTP. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class UniqueKeyApiTest extends ApiTestBase {

  private JsonNode enqueue(String q, String message) {
    Response r = api.post("/v1/queues/" + q + "/messages", "{\"messages\":[" + message + "]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return r.get("results").get(0);
  }

  @Test
  void keepThenReplace_answerSaysWhichHappened_messageShowsTheKey() {
    String q = queue("unique");
    JsonNode created = enqueue(q, "{\"type\":\"t\",\"payload\":{\"n\":1},\"uniqueKey\":\"u1\"}");
    JsonNode kept = enqueue(q, "{\"type\":\"t\",\"payload\":{\"n\":2},\"uniqueKey\":\"u1\"}");
    JsonNode replaced =
        enqueue(
            q,
            "{\"type\":\"t\",\"payload\":{\"n\":3},\"uniqueKey\":\"u1\","
                + "\"onDuplicate\":\"replace\"}");

    String id = created.get("id").asText();
    assertThat(created.get("duplicate").asBoolean()).isFalse();
    assertThat(created.get("replaced").asBoolean()).isFalse();
    assertThat(kept.get("id").asText()).isEqualTo(id);
    assertThat(kept.get("duplicate").asBoolean()).isTrue();
    assertThat(kept.get("replaced").asBoolean()).isFalse();
    assertThat(replaced.get("id").asText()).isEqualTo(id);
    assertThat(replaced.get("duplicate").asBoolean()).isFalse();
    assertThat(replaced.get("replaced").asBoolean()).isTrue();
    Response m = api.get("/v1/messages/" + id);
    assertThat(m.get("uniqueKey").asText()).isEqualTo("u1");
    assertThat(m.get("payload").get("n").asInt()).isEqualTo(3);
    assertThat(m.get("history").get(0).get("outcome").asText()).isEqualTo("REPLACED");
    assertThat(stats(q).get("total").asInt()).isEqualTo(1);
  }

  @Test
  void debounce_setsTheVisibleTime_andImpliesReplace() {
    String q = queue("debounce");
    JsonNode first =
        enqueue(q, "{\"type\":\"t\",\"payload\":1,\"uniqueKey\":\"d\",\"debounce\":\"1h\"}");
    JsonNode second =
        enqueue(q, "{\"type\":\"t\",\"payload\":2,\"uniqueKey\":\"d\",\"debounce\":\"1h\"}");

    assertThat(second.get("replaced").asBoolean()).isTrue();
    assertThat(second.get("id").asText()).isEqualTo(first.get("id").asText());
    Response m = api.get("/v1/messages/" + first.get("id").asText());
    assertThat(m.get("state").asText()).isEqualTo("SCHEDULED");
    assertThat(m.get("payload").asInt()).isEqualTo(2);
    assertThat(lease(q, 1)).isEmpty();
  }

  @Test
  void badInput_answers400NamingTheField() {
    String q = queue("unique-bad");
    Response bothKeys =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"t\",\"uniqueKey\":\"u\",\"dedupeKey\":\"d\"}]}");
    Response badMode =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"t\",\"uniqueKey\":\"u\",\"onDuplicate\":\"drop\"}]}");
    Response badWindow =
        api.post(
            "/v1/queues/" + q + "/messages",
            "{\"messages\":[{\"type\":\"t\",\"uniqueKey\":\"u\",\"debounce\":\"31d\"}]}");

    assertThat(bothKeys.status()).as(bothKeys.toString()).isEqualTo(400);
    assertThat(bothKeys.toString()).contains("uniqueKey").contains("dedupeKey");
    assertThat(badMode.status()).as(badMode.toString()).isEqualTo(400);
    assertThat(badMode.toString()).contains("onDuplicate");
    assertThat(badWindow.status()).as(badWindow.toString()).isEqualTo(400);
    assertThat(badWindow.toString()).contains("debounce");
    assertThat(stats(q).get("total").asInt()).isZero();
  }
}
