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

/**
 * {@code GET /v1/queues/{name}/throughput} and {@code GET /v1/throughput} on both stores, and their
 * deprecated aliases {@code /v1/queues/{name}/activity} and {@code /v1/activity}, which answer the
 * same for one release.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ThroughputApiTest extends ApiTestBase {

  private static long sum(Response r, String field) {
    long total = 0;
    for (JsonNode p : r.get("points")) {
      total += p.get(field).asLong();
    }
    return total;
  }

  /** A queue with 3 enqueued, 1 completed and 1 failed (dead, permanent failure) this minute. */
  private String queueWithWork() {
    String q = queue("throughput");
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
    return q;
  }

  /**
   * The answers of {@code path} and of its alias {@code oldPath}, read between two reads of {@code
   * path} that agree (so no minute turned and no snapshot landed in between: counts only grow).
   */
  private List<Response> answersOf(String path, String oldPath) {
    for (int i = 0; i < 5; i++) {
      Response before = api.get(path);
      Response old = api.get(oldPath);
      Response after = api.get(path);
      if (before.json().equals(after.json())) {
        return List.of(after, old);
      }
    }
    throw new AssertionError(path + " never answered the same twice in a row");
  }

  @Test
  void queueThroughput_afterWork_countsEachKindPerMinute() {
    String q = queueWithWork();

    Response r = api.get("/v1/queues/" + q + "/throughput?minutes=5");

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
  void queueThroughput_defaultWindow_isAnHour() {
    String q = queue("throughput");

    Response r = api.get("/v1/queues/" + q + "/throughput");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("minutes").asInt()).isEqualTo(60);
    assertThat(r.get("points")).hasSize(60);
  }

  @Test
  void allThroughput_sumsEveryQueue() {
    String a = queue("throughput");
    String b = queue("throughput");
    enqueue(a, "t", 1);
    enqueue(b, "t", 1, 2);

    Response all = api.get("/v1/throughput?minutes=3");

    assertThat(all.status()).as(all.toString()).isEqualTo(200);
    assertThat(all.get("queue").isNull()).isTrue();
    assertThat(sum(all, "enqueued")).isGreaterThanOrEqualTo(3);
  }

  @Test
  void throughput_badMinutesOrQueue_refused() {
    String q = queue("throughput");

    assertError(api.get("/v1/queues/" + q + "/throughput?minutes=0"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/queues/" + q + "/throughput?minutes=1441"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/throughput?minutes=soon"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/queues/" + q + "/throughput?window=5"), 400, "UNKNOWN_FIELD");
    assertError(api.get("/v1/queues/missing.q/throughput"), 404, "QUEUE_NOT_FOUND");
  }

  // ---- the deprecated aliases of the old name answer the same ----

  @Test
  void queueActivityAlias_answersAsQueueThroughput() {
    String q = queueWithWork();

    List<Response> answers =
        answersOf(
            "/v1/queues/" + q + "/throughput?minutes=5", "/v1/queues/" + q + "/activity?minutes=5");

    assertThat(answers.get(1).status()).as(answers.get(1).toString()).isEqualTo(200);
    assertThat(answers.get(1).json()).isEqualTo(answers.get(0).json());
    assertThat(sum(answers.get(1), "enqueued")).isEqualTo(3);
    assertThat(api.get("/v1/queues/" + q + "/activity").get("points")).hasSize(60);
  }

  @Test
  void allActivityAlias_answersAsAllThroughput() {
    enqueue(queue("throughput"), "t", 1, 2);

    List<Response> answers = answersOf("/v1/throughput?minutes=3", "/v1/activity?minutes=3");

    assertThat(answers.get(1).status()).as(answers.get(1).toString()).isEqualTo(200);
    assertThat(answers.get(1).json()).isEqualTo(answers.get(0).json());
    assertThat(answers.get(1).get("queue").isNull()).isTrue();
    assertThat(sum(answers.get(1), "enqueued")).isGreaterThanOrEqualTo(2);
  }

  @Test
  void activityAliases_refuseWhatThroughputRefuses() {
    String q = queue("throughput");

    assertError(api.get("/v1/queues/" + q + "/activity?minutes=0"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/activity?minutes=soon"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/queues/" + q + "/activity?window=5"), 400, "UNKNOWN_FIELD");
    assertError(api.get("/v1/queues/missing.q/activity"), 404, "QUEUE_NOT_FOUND");
  }

  @Test
  void openapi_describesBothNames_theOldOnesAsDeprecated() {
    JsonNode paths = api.get("/openapi.json").json().get("paths");

    for (String path : List.of("/v1/throughput", "/v1/queues/{name}/throughput")) {
      JsonNode get = paths.path(path).path("get");
      assertThat(get.path("responses").path("200").toString()).as(path).contains("Throughput");
      assertThat(get.has("deprecated")).as(path).isFalse();
    }
    for (String path : List.of("/v1/activity", "/v1/queues/{name}/activity")) {
      JsonNode get = paths.path(path).path("get");
      assertThat(get.path("deprecated").asBoolean()).as(path).isTrue();
      assertThat(get.path("summary").asText()).as(path).contains("deprecated alias of /v1/");
      assertThat(get.path("responses").path("200").toString()).as(path).contains("Throughput");
      assertThat(get.path("parameters").toString()).as(path).contains("minutes");
    }
  }
}
