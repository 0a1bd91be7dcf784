package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bulk operations over a queue's dead set in server-side batches: {@code POST
 * /v1/queues/{name}/retry} and {@code POST /v1/queues/{name}/redrive?countRemaining=true}.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class BulkDeadApiTest extends ApiTestBase {

  /** Kills every ready message of {@code queue} with {@code reason} (not retryable). */
  private void killAll(String queue, String reason) {
    for (JsonNode m : lease(queue, 100)) {
      Response r =
          api.post(
              "/v1/leases/" + m.get("token").asText() + "/fail",
              "{\"reason\":\"" + reason + "\",\"retryable\":false}");
      assertThat(r.get("state").asText()).as(r.toString()).isEqualTo("DEAD");
    }
  }

  @Test
  void retryByFilter_batchAndRemaining_thenTheRest() {
    String q = queue("bulk-retry");
    enqueue(q, "a", 1, 2, 3, 4, 5);
    killAll(q, "HANDLER_EXCEPTION");

    Response first =
        api.post("/v1/queues/" + q + "/retry", "{\"limit\":2,\"countRemaining\":true}");
    Response rest = api.post("/v1/queues/" + q + "/retry", "{}");

    assertThat(first.status()).as(first.toString()).isEqualTo(200);
    assertThat(first.get("retried")).hasSize(2);
    assertThat(first.get("remaining").asInt()).isEqualTo(3);
    assertThat(rest.get("retried")).hasSize(3);
    assertThat(rest.get("remaining").isNull()).isTrue(); // not asked
    assertThat(stats(q).get("ready").asInt()).isEqualTo(5);
    assertThat(stats(q).get("dead").asInt()).isZero();
  }

  @Test
  void retryByFilter_reasonsAndType_onlyMatchesMove() {
    String q = queue("bulk-filter");
    enqueue(q, "a", 1, 2);
    killAll(q, "VALIDATION_FAILURE");
    enqueue(q, "b", 3);
    killAll(q, "HANDLER_EXCEPTION");
    enqueue(q, "a", 4);
    killAll(q, "DEPENDENCY_FAILURE");

    Response except =
        api.post(
            "/v1/queues/" + q + "/retry",
            "{\"exceptDeadReasons\":[\"VALIDATION_FAILURE\"],\"type\":\"a\",\"countRemaining\":true}");
    Response only =
        api.post(
            "/v1/queues/" + q + "/retry",
            "{\"deadReasons\":[\"validation_failure\",\"HANDLER_EXCEPTION\"],\"dryRun\":true,"
                + "\"countRemaining\":true}");

    assertThat(except.get("retried")).hasSize(1); // the DEPENDENCY_FAILURE one of type a
    assertThat(except.get("remaining").asInt()).isZero();
    assertThat(only.get("retried")).hasSize(3);
    assertThat(only.get("dryRun").asBoolean()).isTrue();
    assertThat(only.get("remaining").asInt()).isEqualTo(3); // a dry run changes nothing
    assertThat(stats(q).get("dead").asInt()).isEqualTo(3);
  }

  @Test
  void retryByFilter_badInput_namesTheFieldAndChangesNothing() {
    String q = queue("bulk-bad");
    enqueue(q, "a", 1);
    killAll(q, "HANDLER_EXCEPTION");

    Response zero = api.post("/v1/queues/" + q + "/retry", "{\"limit\":0}");
    Response big = api.post("/v1/queues/" + q + "/retry", "{\"limit\":1001}");
    Response reason = api.post("/v1/queues/" + q + "/retry", "{\"deadReasons\":[\"NOPE\"]}");
    Response field = api.post("/v1/queues/" + q + "/retry", "{\"limitt\":1}");
    Response missing = api.post("/v1/queues/nope-" + q + "/retry", "{}");

    assertError(zero, 400, "INVALID_REQUEST");
    assertThat(zero.json().path("error").path("message").asText())
        .contains("limit: must be between 1 and 1000, was 0");
    assertError(big, 400, "INVALID_REQUEST");
    assertThat(reason.status()).isEqualTo(400);
    assertThat(reason.json().path("error").path("message").asText()).contains("deadReasons");
    assertThat(field.status()).isEqualTo(400);
    assertError(missing, 404, "QUEUE_NOT_FOUND");
    assertThat(stats(q).get("dead").asInt()).isEqualTo(1);
  }

  @Test
  void redrive_countRemaining_saysWhatALaterCallCouldMove() {
    String dlq = queue("bulk-dlq");
    String q = queue("bulk-src", "deadLetterQueue", dlq);
    enqueue(q, "a", 1, 2, 3);
    killAll(q, "HANDLER_EXCEPTION");

    Response first =
        api.post(
            "/v1/queues/" + dlq + "/redrive?countRemaining=true",
            HttpApiClient.json(Map.of("limit", 1)));
    Response plain =
        api.post("/v1/queues/" + dlq + "/redrive", HttpApiClient.json(Map.of("limit", 1)));
    Response bad = api.post("/v1/queues/" + dlq + "/redrive?countRemaining=maybe", "{}");

    assertThat(first.status()).as(first.toString()).isEqualTo(200);
    assertThat(first.get("count").asInt()).isEqualTo(1);
    assertThat(first.get("remaining").asInt()).isEqualTo(2);
    assertThat(plain.json().has("remaining")).isFalse();
    assertThat(bad.status()).isEqualTo(400);
    assertThat(stats(dlq).get("dead").asInt()).isEqualTo(1);
  }
}
