package io.redrive.server;

import static io.redrive.server.ApiTestBase.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.Redrive;
import io.redrive.message.MessageQuery;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Role;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /v1/schedules} behind scoped keys: a key limited to some queues neither sees nor changes a
 * schedule producing into another queue, and cannot create one; a key limited to some
 * orchestrations likewise for workflow schedules; the two scopes are independent, as on the queue
 * and workflow endpoints.
 */
class ScheduleScopeHttpTest {
  private static final String QUEUES_KEY = "queues-secret-0123456789abcdef";
  private static final String WORKFLOWS_KEY = "workflows-secret-0123456789abcdef";
  private static final String MINE = "mine.q";
  private static final String OTHER = "other.q";

  @TempDir static Path dir;
  private static TestServers.Keyed server;
  private static Redrive redrive;
  private static HttpApiClient sam; // admin, queues mine.*
  private static HttpApiClient wes; // admin, workflows Order*

  @BeforeAll
  static void start() {
    server =
        TestServers.keyed(
            dir,
            new ApiKey("sam", QUEUES_KEY, Role.ADMIN, List.of("mine.*")),
            new ApiKey("wes", WORKFLOWS_KEY, Role.ADMIN, List.of(), List.of("Order*")));
    redrive = server.redrive();
    redrive.createQueue(MINE);
    redrive.createQueue(OTHER);
    sam = new HttpApiClient(server.server().baseUrl()).withKey(QUEUES_KEY);
    wes = new HttpApiClient(server.server().baseUrl()).withKey(WORKFLOWS_KEY);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String save(ScheduleTarget target) {
    String name = TestServers.unique("s");
    redrive
        .schedules()
        .save(Schedule.builder(name, ScheduleSpec.every(Duration.ofHours(1)), target).build());
    return name;
  }

  private static List<String> names(HttpApiClient api) {
    Response r = api.get("/v1/schedules");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    for (JsonNode s : r.get("schedules")) {
      names.add(s.get("name").asText());
    }
    return names;
  }

  private static String messageBody(String queue) {
    return "{\"every\":\"1h\",\"queue\":\"" + queue + "\",\"type\":\"t\",\"payload\":\"secret\"}";
  }

  @Test
  void aQueueScopedKey_seesAndChangesOnlySchedulesOfItsQueues() {
    String mine = save(ScheduleTarget.message(MINE, "t", "{}"));
    String theirs = save(ScheduleTarget.message(OTHER, "t", "{\"card\":\"4111\"}"));

    assertThat(names(sam)).contains(mine).doesNotContain(theirs);
    assertThat(sam.get("/v1/schedules/" + mine).status()).isEqualTo(200);
    Response hidden = sam.get("/v1/schedules/" + theirs);
    assertError(hidden, 404, "SCHEDULE_NOT_FOUND");
    assertThat(hidden.body()).doesNotContain(OTHER, "4111");
    for (String action : List.of("pause", "resume", "trigger")) {
      assertError(sam.post("/v1/schedules/" + theirs + "/" + action), 404, "SCHEDULE_NOT_FOUND");
    }
    assertError(sam.delete("/v1/schedules/" + theirs), 404, "SCHEDULE_NOT_FOUND");
    assertThat(redrive.schedules().find(theirs))
        .hasValueSatisfying(s -> assertThat(s.schedule().paused()).isFalse());
    assertThat(redrive.listMessages(MessageQuery.all(OTHER)).messages()).isEmpty();

    assertThat(sam.post("/v1/schedules/" + mine + "/pause").get("paused").asBoolean()).isTrue();
    assertThat(sam.post("/v1/schedules/" + mine + "/trigger").status()).isEqualTo(200);
  }

  @Test
  void aQueueScopedKey_cannotCreateOrTakeOverASchedule_producingIntoAnotherQueue() {
    String fresh = TestServers.unique("new");
    assertError(sam.send("PUT", "/v1/schedules/" + fresh, messageBody(OTHER)), 403, "FORBIDDEN");
    assertThat(redrive.schedules().find(fresh)).isEmpty();

    // A hidden schedule's name is taken, but replacing it (even pointing into the key's own queue)
    // is refused without naming what it produces.
    String theirs = save(ScheduleTarget.message(OTHER, "t", "{}"));
    Response takeOver = sam.send("PUT", "/v1/schedules/" + theirs, messageBody(MINE));
    assertError(takeOver, 403, "FORBIDDEN");
    assertThat(takeOver.body()).doesNotContain(OTHER);
    assertThat(redrive.schedules().find(theirs).orElseThrow().schedule().target())
        .isEqualTo(ScheduleTarget.message(OTHER, "t", "{}"));

    Response own = sam.send("PUT", "/v1/schedules/" + fresh, messageBody(MINE));
    assertThat(own.status()).as(own.toString()).isEqualTo(200);
  }

  @Test
  void workflowSchedules_followTheKeysWorkflowsScope() {
    String orders = save(ScheduleTarget.workflow("OrderSweep", null));
    String payroll = save(ScheduleTarget.workflow("Payroll", null));
    String message = save(ScheduleTarget.message(OTHER, "t", "{}"));

    assertThat(names(wes)).contains(orders, message).doesNotContain(payroll);
    assertError(wes.get("/v1/schedules/" + payroll), 404, "SCHEDULE_NOT_FOUND");
    assertError(wes.post("/v1/schedules/" + payroll + "/trigger"), 404, "SCHEDULE_NOT_FOUND");
    assertThat(wes.post("/v1/schedules/" + orders + "/pause").status()).isEqualTo(200);
    assertError(
        wes.send(
            "PUT",
            "/v1/schedules/" + TestServers.unique("pay"),
            "{\"every\":\"1h\",\"workflow\":\"Payroll\"}"),
        403,
        "FORBIDDEN");
    Response own =
        wes.send(
            "PUT",
            "/v1/schedules/" + TestServers.unique("ord"),
            "{\"every\":\"1h\",\"workflow\":\"OrderClose\"}");
    assertThat(own.status()).as(own.toString()).isEqualTo(200);

    // The queues scope does not limit workflow schedules, as it does not limit workflow starts.
    assertThat(names(sam)).contains(orders, payroll).doesNotContain(message);
  }

  @Test
  void aViewer_seesSchedules_butChangesNone() {
    String name = save(ScheduleTarget.message(MINE, "t", "{}"));
    HttpApiClient vic =
        new HttpApiClient(server.server().baseUrl()).withKey(TestServers.VIEWER_KEY);
    assertThat(names(vic)).contains(name);
    assertError(vic.post("/v1/schedules/" + name + "/pause"), 403, "FORBIDDEN");
    assertError(vic.post("/v1/schedules/" + name + "/trigger"), 403, "FORBIDDEN");
    assertError(vic.send("PUT", "/v1/schedules/" + name, messageBody(MINE)), 403, "FORBIDDEN");
    assertThat(redrive.schedules().find(name).orElseThrow().schedule().paused()).isFalse();
  }
}
