package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code GET /v1/queues/{name}/activity} and {@code GET /v1/activity} on both stores. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ActivityApiTest extends ApiTestBase {

  private static long sum(Response r, String field) {
    long total = 0;
    for (JsonNode p : r.get("points")) {
      total += p.get(field).asLong();
    }
    return total;
  }

  @Test
  void queueActivity_afterWork_countsEachKindPerMinute() {
    String q = queue("activity");
    enqueue(q, "t", 1, 2, 3);
    List<JsonNode> leased = lease(q, 2);
    assertThat(api.post("/v1/leases/" + leased.get(0).get("token").asText() + "/complete").status())
        .isEqualTo(200);
    assertThat(
            api.post(
                    "/v1/leases/" + leased.get(1).get("token").asText() + "/fail",
                    "{\"reason\":\"validation_failure\",\"message\":\"bad\"}")
                .status())
        .isEqualTo(200);

    Response r = api.get("/v1/queues/" + q + "/activity?minutes=5");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("queue").asText()).isEqualTo(q);
    assertThat(r.get("minutes").asInt()).isEqualTo(5);
    assertThat(r.get("points")).hasSize(5);
    assertThat(sum(r, "enqueued")).isEqualTo(3);
    assertThat(sum(r, "completed")).isEqualTo(1);
    assertThat(sum(r, "failed")).isEqualTo(1);
    assertThat(sum(r, "dead")).isEqualTo(1);
    JsonNode last = r.get("points").get(4);
    Instant minute = Instant.parse(last.get("minute").asText());
    assertThat(minute).isEqualTo(minute.truncatedTo(ChronoUnit.MINUTES));
    assertThat(Duration.between(minute, Instant.now())).isLessThan(Duration.ofMinutes(2));
    assertThat(last.has("depth")).isTrue();
  }

  @Test
  void queueActivity_defaultWindow_isAnHour() {
    String q = queue("activity");

    Response r = api.get("/v1/queues/" + q + "/activity");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("minutes").asInt()).isEqualTo(60);
    assertThat(r.get("points")).hasSize(60);
  }

  @Test
  void allActivity_sumsEveryQueue() {
    String a = queue("activity");
    String b = queue("activity");
    enqueue(a, "t", 1);
    enqueue(b, "t", 1, 2);

    Response all = api.get("/v1/activity?minutes=3");

    assertThat(all.status()).as(all.toString()).isEqualTo(200);
    assertThat(all.get("queue").isNull()).isTrue();
    assertThat(sum(all, "enqueued")).isGreaterThanOrEqualTo(3);
  }

  @Test
  void activity_badMinutesOrQueue_refused() {
    String q = queue("activity");

    assertError(api.get("/v1/queues/" + q + "/activity?minutes=0"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/queues/" + q + "/activity?minutes=1441"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/activity?minutes=soon"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/queues/" + q + "/activity?window=5"), 400, "UNKNOWN_FIELD");
    assertError(api.get("/v1/queues/missing.q/activity"), 404, "QUEUE_NOT_FOUND");
  }
}
