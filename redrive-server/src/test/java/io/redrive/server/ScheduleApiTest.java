package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code /v1/schedules} on both stores: put, get, list, pause, resume, trigger, delete. */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ScheduleApiTest extends ApiTestBase {

  private JsonNode named(Response list, String name) {
    for (JsonNode s : list.get("schedules")) {
      if (s.get("name").asText().equals(name)) {
        return s;
      }
    }
    return null;
  }

  @Test
  void aSchedule_isCreatedListedPausedTriggeredAndDeleted() {
    String q = queue("sched");
    String name = TestServers.unique("report");
    String path = "/v1/schedules/" + name;
    Response put =
        api.send(
            "PUT",
            path,
            "{\"cron\":\"30 2 * * *\",\"zone\":\"Europe/Berlin\",\"queue\":\""
                + q
                + "\",\"type\":\"build\",\"payload\":\"{}\",\"jitter\":\"10s\",\"catchUp\":\"all:5\"}");
    assertThat(put.status()).as(put.toString()).isEqualTo(200);
    assertThat(put.get("zone").asText()).isEqualTo("Europe/Berlin");
    assertThat(put.get("catchUp").asText()).isEqualTo("ALL:5");
    assertThat(put.get("nextDueAt").asText()).isNotBlank();

    assertThat(named(api.get("/v1/schedules"), name)).isNotNull();
    assertThat(api.get(path).get("queue").asText()).isEqualTo(q);

    assertThat(api.post(path + "/pause").get("paused").asBoolean()).isTrue();
    assertThat(api.post(path + "/resume").get("paused").asBoolean()).isFalse();

    Response fired = api.post(path + "/trigger");
    assertThat(fired.status()).as(fired.toString()).isEqualTo(200);
    assertThat(fired.get("created").asBoolean()).isTrue();
    JsonNode stats = stats(q);
    assertThat(stats.get("ready").asInt() + stats.get("scheduled").asInt())
        .as("one message, delayed by up to the jitter")
        .isEqualTo(1);

    assertThat(api.delete(path).status()).isEqualTo(204);
    assertError(api.get(path), 404, "SCHEDULE_NOT_FOUND");
    assertError(api.post(path + "/trigger"), 404, "SCHEDULE_NOT_FOUND");
  }

  @Test
  void everyFieldOfThePut_readsBackAsGiven() {
    String q = queue("sched");
    String name = TestServers.unique("full");
    String path = "/v1/schedules/" + name;
    Response put =
        api.send(
            "PUT",
            path,
            "{\"every\":\"5m\",\"queue\":\""
                + q
                + "\",\"type\":\"build\",\"payload\":\"{\\\"n\\\":1}\","
                + "\"headers\":{\"tenant\":\"acme\"},\"stream\":\"s-1\",\"expireAfter\":\"1h\","
                + "\"priority\":7,\"limitKey\":\"acme\"}");
    assertThat(put.status()).as(put.toString()).isEqualTo(200);

    Response got = api.get(path);
    assertThat(got.get("payload").asText()).isEqualTo("{\"n\":1}");
    assertThat(got.get("headers").get("tenant").asText()).isEqualTo("acme");
    assertThat(got.get("stream").asText()).isEqualTo("s-1");
    assertThat(got.get("expireAfter").asText()).isEqualTo("1h");
    assertThat(got.get("priority").asInt()).isEqualTo(7);
    assertThat(got.get("limitKey").asText()).isEqualTo("acme");
    assertThat(got.get("workflow").isNull()).isTrue();

    String wf = TestServers.unique("wf");
    Response workflow =
        api.send(
            "PUT",
            "/v1/schedules/" + wf,
            "{\"every\":\"5m\",\"workflow\":\"OrderSweep\",\"input\":\"{\\\"r\\\":\\\"eu\\\"}\",\"version\":\"2\"}");
    assertThat(workflow.status()).as(workflow.toString()).isEqualTo(200);
    assertThat(workflow.get("input").asText()).isEqualTo("{\"r\":\"eu\"}");
    assertThat(workflow.get("version").asText()).isEqualTo("2");
    assertThat(workflow.get("priority").isNull()).isTrue();
  }

  @Test
  void badSchedules_areRefusedNamingTheField() {
    String q = queue("sched");
    String path = "/v1/schedules/" + TestServers.unique("bad");
    assertError(
        api.send("PUT", path, "{\"cron\":\"61 * * * *\",\"queue\":\"" + q + "\",\"type\":\"t\"}"),
        400,
        "INVALID_REQUEST");
    assertError(
        api.send("PUT", path, "{\"every\":\"1m\",\"queue\":\"nowhere-" + q + "\",\"type\":\"t\"}"),
        404,
        "QUEUE_NOT_FOUND");
    assertError(api.get(path), 404, "SCHEDULE_NOT_FOUND");
  }
}
