package io.redrive.server;

import static io.redrive.server.ApiTestBase.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The workflow endpoints' contract on both stores, against a server running a workflow runtime:
 * start, get with wait, list filters, history pages, timeline, children, events, terminate, retry
 * and delete, each with the bad inputs that must be refused with their code and change nothing.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class WorkflowApiTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Parameter StoreKind kind;
  private HttpApiClient api;

  @BeforeEach
  void connect() {
    api = new HttpApiClient(WorkflowServers.of(kind).baseUrl());
  }

  private static String unique(String prefix) {
    return TestServers.unique(prefix);
  }

  private Response start(String name, String id, String input) {
    return api.post(
        "/v1/workflows",
        "{\"name\":\"" + name + "\",\"id\":\"" + id + "\",\"input\":" + input + "}");
  }

  private JsonNode awaitEnd(String id) {
    await()
        .atMost(WAIT)
        .until(
            () ->
                List.of("COMPLETED", "FAILED", "TERMINATED")
                    .contains(api.get("/v1/workflows/" + id).get("status").asText()));
    return api.get("/v1/workflows/" + id).json();
  }

  @Test
  void start_getWithWait_completesWithOutput() {
    String id = unique("greet");
    Response started = start("Greet", id, "\"ada\"");

    assertThat(started.status()).as(started.toString()).isEqualTo(201);
    assertThat(started.get("created").asBoolean()).isTrue();
    assertThat(started.get("id").asText()).isEqualTo(id);
    assertThat(started.get("input").asText()).isEqualTo("ada");
    Response done = api.get("/v1/workflows/" + id + "?wait=5s");
    if (!done.get("status").asText().equals("COMPLETED")) {
      done = api.get("/v1/workflows/" + id + "?wait=5s");
    }
    assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("COMPLETED");
    assertThat(done.get("output").asText()).isEqualTo("hello ADA");
    assertThat(done.get("version").asText()).isEqualTo("1.0.0");
    assertThat(done.get("waiting").isNull()).isTrue();
    assertThat(done.get("history").get("events").asInt()).isGreaterThan(3);
    assertThat(done.get("completedAt").isNull()).isFalse();
  }

  @Test
  void start_sameId_failsOrReturnsTheExistingOne() {
    String id = unique("twice");
    assertThat(start("WaitsEvent", id, "null").status()).isEqualTo(201);

    assertError(start("WaitsEvent", id, "null"), 409, "INSTANCE_EXISTS");
    Response again =
        api.post(
            "/v1/workflows",
            "{\"name\":\"WaitsEvent\",\"id\":\"" + id + "\",\"ifExists\":\"return\"}");
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.get("created").asBoolean()).isFalse();
    api.post("/v1/workflows/" + id + "/terminate", "{}");
  }

  @Test
  void start_badInput_refusedWithItsCodeAndNothingStarted() {
    String id = unique("bad");
    assertError(
        api.post("/v1/workflows", "{\"name\":\"Greet\",\"id\":\"has space\"}"),
        400,
        "INVALID_REQUEST");
    assertError(
        api.post("/v1/workflows", "{\"name\":\"Greet\",\"id\":\"" + id + "::sub::1\"}"),
        400,
        "INVALID_REQUEST");
    assertError(api.post("/v1/workflows", "{\"id\":\"" + id + "\"}"), 400, "INVALID_REQUEST");
    assertError(
        api.post("/v1/workflows", "{\"name\":\" \",\"id\":\"" + id + "\"}"),
        400,
        "INVALID_REQUEST");
    assertError(
        api.post("/v1/workflows", "{\"name\":\"Greet\",\"version\":\"one\",\"id\":\"" + id + "\"}"),
        400,
        "INVALID_REQUEST");
    assertError(
        api.post(
            "/v1/workflows", "{\"name\":\"Greet\",\"delay\":\"5 parsecs\",\"id\":\"" + id + "\"}"),
        400,
        "INVALID_REQUEST");
    assertError(
        api.post(
            "/v1/workflows", "{\"name\":\"Greet\",\"ifExists\":\"maybe\",\"id\":\"" + id + "\"}"),
        400,
        "INVALID_REQUEST");
    assertError(
        api.post("/v1/workflows", "{\"name\":\"Greet\",\"colour\":1,\"id\":\"" + id + "\"}"),
        400,
        "UNKNOWN_FIELD");
    assertError(api.post("/v1/workflows", "{\"name\":\"Greet\","), 400, "MALFORMED_JSON");
    String big = "\"" + "x".repeat(TestServers.MAX_PAYLOAD_BYTES + 10) + "\"";
    assertError(start("Greet", id, big), 413, "PAYLOAD_TOO_LARGE");

    assertError(api.get("/v1/workflows/" + id), 404, "INSTANCE_NOT_FOUND");
  }

  @Test
  void unknownInstance_everyEndpoint_notFound() {
    String id = unique("ghost");
    for (Response r :
        List.of(
            api.get("/v1/workflows/" + id),
            api.get("/v1/workflows/" + id + "/history"),
            api.get("/v1/workflows/" + id + "/timeline"),
            api.get("/v1/workflows/" + id + "/children"),
            api.post("/v1/workflows/" + id + "/events", "{\"name\":\"go\"}"),
            api.post("/v1/workflows/" + id + "/terminate", "{}"),
            api.post("/v1/workflows/" + id + "/retry", "{}"),
            api.delete("/v1/workflows/" + id))) {
      assertError(r, 404, "INSTANCE_NOT_FOUND");
    }
    assertError(api.get("/v1/workflows/%01x"), 400, "INVALID_REQUEST");
  }

  @Test
  void list_filtersByStatusNameAndParent_pagesWithCursor() {
    String parent = unique("parent");
    assertThat(start("Parent", parent, "\"bo\"").status()).isEqualTo(201);
    JsonNode done = awaitEnd(parent);
    assertThat(done.get("output").asText()).isEqualTo("parent of hello BO");

    Response children = api.get("/v1/workflows/" + parent + "/children");
    assertThat(children.get("instances")).hasSize(1);
    JsonNode child = children.get("instances").get(0);
    assertThat(child.get("parent").asText()).isEqualTo(parent);
    assertThat(child.get("name").asText()).isEqualTo("Greet");
    assertThat(child.has("input")).isFalse();
    Response byParent = api.get("/v1/workflows?parent=" + parent);
    assertThat(byParent.get("instances")).hasSize(1);
    Response roots = api.get("/v1/workflows?roots=true&name=Greet&limit=1000");
    roots.get("instances").forEach(i -> assertThat(i.get("parent").isNull()).isTrue());

    List<String> seen = new ArrayList<>();
    String after = null;
    do {
      Response page =
          api.get(
              "/v1/workflows?status=completed&name=Parent&limit=1"
                  + (after == null ? "" : "&after=" + after));
      assertThat(page.status()).as(page.toString()).isEqualTo(200);
      page.get("instances").forEach(i -> seen.add(i.get("id").asText()));
      page.get("instances")
          .forEach(i -> assertThat(i.get("status").asText()).isEqualTo("COMPLETED"));
      after = page.get("next").isNull() ? null : page.get("next").asText();
    } while (after != null);
    assertThat(seen).contains(parent).doesNotHaveDuplicates();
    // statuses repeated or comma-separated, as a queue's message list takes states
    List<String> either = new ArrayList<>();
    api.get("/v1/workflows?status=failed,completed&name=Parent&limit=1000")
        .get("instances")
        .forEach(i -> either.add(i.get("id").asText()));
    List<String> repeated = new ArrayList<>();
    api.get("/v1/workflows?status=failed&status=completed&name=Parent&limit=1000")
        .get("instances")
        .forEach(i -> repeated.add(i.get("id").asText()));
    assertThat(either).contains(parent).isEqualTo(repeated);

    assertError(api.get("/v1/workflows?status=sleeping"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows?limit=0"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows?limit=1001"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows?after=abc"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows?since=yesterday"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows?roots=true&parent=" + parent), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows?colour=red"), 400, "UNKNOWN_FIELD");
  }

  @Test
  void history_pagesAndFilters_timelineShowsDeliveries() {
    String id = unique("hist");
    start("Greet", id, "\"cy\"");
    awaitEnd(id);

    List<String> kinds = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      Response page =
          api.get(
              "/v1/workflows/"
                  + id
                  + "/history?limit=2"
                  + (after == null ? "" : "&after=" + after));
      assertThat(page.status()).as(page.toString()).isEqualTo(200);
      page.get("events").forEach(e -> kinds.add(e.get("kind").asText()));
      after = page.get("next").isNull() ? null : page.get("next").asText();
      pages++;
    } while (after != null);
    assertThat(kinds)
        .containsExactly(
            "ORCHESTRATION_STARTED",
            "ACTIVITY_SCHEDULED",
            "ACTIVITY_COMPLETED",
            "ORCHESTRATION_COMPLETED");
    assertThat(pages).isEqualTo(2);
    Response withTurns = api.get("/v1/workflows/" + id + "/history?turns=true&execution=all");
    assertThat(withTurns.get("events").toString()).contains("TURN_STARTED");
    assertThat(withTurns.get("events").get(0).get("data").get("input").asText()).isEqualTo("cy");
    assertThat(api.get("/v1/workflows/" + id + "/history?execution=2").get("events")).isEmpty();
    assertError(api.get("/v1/workflows/" + id + "/history?execution=0"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows/" + id + "/history?turns=maybe"), 400, "INVALID_REQUEST");

    Response timeline = api.get("/v1/workflows/" + id + "/timeline");
    assertThat(timeline.status()).isEqualTo(200);
    List<String> lines = new ArrayList<>();
    timeline
        .get("entries")
        .forEach(
            e ->
                lines.add(
                    e.get("kind").asText()
                        + " "
                        + (e.get("event").isNull()
                            ? e.get("outcome").asText()
                            : e.get("event").asText())));
    assertThat(lines)
        .containsSubsequence(
            "EVENT ACTIVITY_SCHEDULED",
            "ACTIVITY_ATTEMPT COMPLETED",
            "EVENT ACTIVITY_COMPLETED",
            "EVENT ORCHESTRATION_COMPLETED");
  }

  @Test
  void events_dedupedWhileWaiting_deliveredAndRefusedOnceEnded() {
    // started an hour from now: no turn consumes its inbox, so the dedupe key stays taken
    String later = unique("later");
    api.post(
        "/v1/workflows", "{\"name\":\"WaitsEvent\",\"id\":\"" + later + "\",\"delay\":\"1h\"}");
    Response first =
        api.post(
            "/v1/workflows/" + later + "/events",
            "{\"name\":\"go\",\"payload\":1,\"dedupeKey\":\"k1\"}");
    Response second =
        api.post(
            "/v1/workflows/" + later + "/events",
            "{\"name\":\"go\",\"payload\":2,\"dedupeKey\":\"k1\"}");

    assertThat(first.status()).as(first.toString()).isEqualTo(200);
    assertThat(first.get("duplicate").asBoolean()).isFalse();
    assertThat(second.status()).as(second.toString()).isEqualTo(200);
    assertThat(second.get("duplicate").asBoolean()).isTrue();
    JsonNode pending = api.get("/v1/workflows/" + later).json();
    assertThat(pending.get("status").asText()).isEqualTo("PENDING");
    assertThat(pending.get("pending").get("events").asInt()).isEqualTo(1);
    api.post("/v1/workflows/" + later + "/terminate", "{}");

    String id = unique("events");
    start("WaitsEvent", id, "null");
    Response go =
        api.post("/v1/workflows/" + id + "/events", "{\"name\":\"go\",\"payload\":\"now\"}");
    assertThat(go.status()).as(go.toString()).isEqualTo(200);
    JsonNode done = awaitEnd(id);
    assertThat(done.get("output").asText()).isEqualTo("now");
    assertError(
        api.post("/v1/workflows/" + id + "/events", "{\"name\":\"go\"}"),
        409,
        "INSTANCE_NOT_RUNNING");
    assertError(api.post("/v1/workflows/" + id + "/events", "{}"), 400, "INVALID_REQUEST");
    assertError(
        api.post(
            "/v1/workflows/" + later + "/events",
            "{\"name\":\"go\",\"dedupeKey\":\"" + "k".repeat(201) + "\"}"),
        400,
        "INVALID_REQUEST");
  }

  /** The attack campaign's probes: a NUL in a filter or a reason is a named 400 on both stores. */
  @Test
  void nulInFiltersAndReasons_400NamingTheField_changesNothing() {
    for (String filter : List.of("name", "version", "parent", "root", "status")) {
      Response r = api.get("/v1/workflows?" + filter + "=a%00b");
      assertError(r, 400, "INVALID_REQUEST");
      assertThat(r.json().path("error").path("message").asText())
          .as(filter)
          .startsWith(filter + ":")
          .contains("NUL");
    }
    String id = unique("nul");
    start("WaitsEvent", id, "null");
    for (String[] probe :
        new String[][] {
          {"terminate", "{\"reason\":\"x\\u0000y\"}", "reason"},
          {"events", "{\"name\":\"go\\u0000\",\"payload\":null}", "name"}
        }) {
      Response r = api.post("/v1/workflows/" + id + "/" + probe[0], probe[1]);
      assertError(r, 400, "INVALID_REQUEST");
      assertThat(r.json().path("error").path("message").asText())
          .as(probe[0])
          .startsWith(probe[2] + ":")
          .contains("NUL");
    }
    JsonNode now = api.get("/v1/workflows/" + id).json();
    assertThat(now.get("terminateRequested").asBoolean()).isFalse();
    assertThat(now.get("status").asText()).isIn("PENDING", "RUNNING");
    api.post("/v1/workflows/" + id + "/terminate", "{}");
  }

  @Test
  void terminate_running_endsTerminatedWithTheReason() {
    String id = unique("term");
    start("WaitsEvent", id, "null");
    assertError(
        api.post("/v1/workflows/" + id + "/terminate", "{\"reason\":\"" + "r".repeat(1001) + "\"}"),
        400,
        "INVALID_REQUEST");
    assertThat(api.get("/v1/workflows/" + id).get("terminateRequested").asBoolean()).isFalse();

    Response r = api.post("/v1/workflows/" + id + "/terminate", "{\"reason\":\"operator\"}");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    JsonNode done = awaitEnd(id);
    assertThat(done.get("status").asText()).isEqualTo("TERMINATED");
    assertThat(done.get("failure").get("message").asText()).contains("operator");
    assertThat(done.get("terminateRequested").asBoolean()).isFalse();
    assertError(api.post("/v1/workflows/" + id + "/terminate", "{}"), 409, "INSTANCE_NOT_RUNNING");
  }

  @Test
  void retry_poisonedAfterAFix_completes_applicationFailureIsNotRetryable() {
    String id = unique("fragile");
    String input = "\"" + id + "\"";
    WorkflowServers.BROKEN.add(id);
    start("Fragile", id, input);
    JsonNode failed = awaitEnd(id);
    assertThat(failed.get("status").asText()).isEqualTo("FAILED");
    assertThat(failed.get("failure").get("reason").asText()).isEqualTo("POISON");
    assertThat(failed.get("failure").get("display").asText()).startsWith("poison: orchestration");
    assertThat(failed.get("failure").get("lastAttempt").get("reason").asText())
        .isEqualTo("NODE_ERROR");
    assertThat(failed.get("failure").get("display").asText())
        .endsWith(
            "; last attempt: NODE_ERROR: java.lang.NoClassDefFoundError: com/example/Gone"
                + " (mid-deploy)");

    WorkflowServers.BROKEN.remove(id);
    Response retried = api.post("/v1/workflows/" + id + "/retry", "{\"note\":\"fixed deploy\"}");

    assertThat(retried.status()).as(retried.toString()).isEqualTo(200);
    assertThat(awaitEnd(id).get("output").asText()).isEqualTo("fixed");
    String thrower = unique("throws");
    start("Throws", thrower, "\"no\"");
    assertThat(awaitEnd(thrower).get("failure").get("reason").asText())
        .isEqualTo("ORCHESTRATION_EXCEPTION");
    assertError(api.post("/v1/workflows/" + thrower + "/retry", "{}"), 409, "NOT_RETRYABLE");
    assertError(api.post("/v1/workflows/" + id + "/retry", "{}"), 409, "NOT_FAILED");
  }

  @Test
  void activityAWorkerHasNoHandlerFor_poisonedInstanceNamesTheUnregisteredHandler() {
    String id = unique("missing");
    start("CallsMissing", id, "\"x\"");

    // An HTTP worker without a handler for "Missing" bounces it (docs/api.md) until it poisons.
    await()
        .atMost(WAIT)
        .until(
            () -> {
              Response leased =
                  api.post(
                      "/v1/queues/wf.activities/lease",
                      "{\"worker\":\"http-w\",\"max\":1,\"wait\":\"200ms\","
                          + "\"types\":[\"Missing\"]}");
              for (JsonNode m : leased.get("messages")) {
                api.post(
                    "/v1/leases/" + m.get("token").asText() + "/fail",
                    "{\"reason\":\"UNREGISTERED_HANDLER\",\"retryAfter\":\"10ms\"}");
              }
              return api.get("/v1/workflows/" + id).get("status").asText().equals("FAILED");
            });

    JsonNode failure = api.get("/v1/workflows/" + id).json().get("failure");
    assertThat(failure.get("reason").asText()).isEqualTo("POISON");
    assertThat(failure.get("target").asText()).isEqualTo("ACTIVITY");
    assertThat(failure.get("display").asText())
        .startsWith(
            "poison: activity Missing#1 exceeded 3 attempts (max 2); last attempt:"
                + " UNREGISTERED_HANDLER: no handler for type Missing on worker http-w");
    JsonNode last = failure.get("lastAttempt");
    assertThat(last.get("reason").asText()).isEqualTo("UNREGISTERED_HANDLER");
    assertThat(last.get("category").asText()).isEqualTo("configuration");
    assertThat(last.get("attempt").asInt()).isEqualTo(2);
    assertThat(last.get("activityName").asText()).isEqualTo("Missing");
    assertThat(last.get("display").asText()).startsWith("UNREGISTERED_HANDLER on http-w: ");
    JsonNode listed = api.get("/v1/workflows?status=failed&limit=1000").json().get("instances");
    assertThat(listed)
        .filteredOn(i -> i.get("id").asText().equals(id))
        .singleElement()
        .satisfies(
            i ->
                assertThat(i.get("failure").get("display").asText())
                    .contains("last attempt: UNREGISTERED_HANDLER"));
  }

  @Test
  void delete_childOrRunningRefused_forceDeletesTheTree() {
    String waiting = unique("del");
    start("WaitsEvent", waiting, "null");
    String parent = unique("delparent");
    start("Parent", parent, "\"x\"");
    awaitEnd(parent);
    String child =
        api.get("/v1/workflows/" + parent + "/children").get("instances").get(0).get("id").asText();

    assertError(api.delete("/v1/workflows/" + child), 409, "NOT_ROOT");
    assertError(api.delete("/v1/workflows/" + waiting), 409, "TREE_RUNNING");
    assertThat(api.get("/v1/workflows/" + waiting).status()).isEqualTo(200);
    assertError(api.delete("/v1/workflows/" + waiting + "?force=yes"), 400, "INVALID_REQUEST");
    Response forced = api.delete("/v1/workflows/" + waiting + "?force=true");
    Response tree = api.delete("/v1/workflows/" + parent);

    assertThat(forced.status()).as(forced.toString()).isEqualTo(200);
    assertThat(forced.get("instances").asInt()).isEqualTo(1);
    assertThat(tree.get("instances").asInt()).isEqualTo(2);
    assertError(api.get("/v1/workflows/" + waiting), 404, "INSTANCE_NOT_FOUND");
    assertError(api.get("/v1/workflows/" + child), 404, "INSTANCE_NOT_FOUND");
  }

  @Test
  void get_waitOverTheServersMaximum_refused() {
    String id = unique("wait");
    start("WaitsEvent", id, "null");
    assertError(api.get("/v1/workflows/" + id + "?wait=1h"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows/" + id + "?wait=soon"), 400, "INVALID_REQUEST");
    Response waited = api.get("/v1/workflows/" + id + "?wait=200ms");
    assertThat(waited.get("status").asText()).isIn("PENDING", "RUNNING");
    assertThat(waited.get("pending").get("events").asInt()).isZero();
    api.post("/v1/workflows/" + id + "/terminate", "{}");

    // an ended instance answers at once, but a bad wait is still refused
    awaitEnd(id);
    assertError(api.get("/v1/workflows/" + id + "?wait=1h"), 400, "INVALID_REQUEST");
    assertError(api.get("/v1/workflows/" + id + "?wait=soon"), 400, "INVALID_REQUEST");
    assertThat(api.get("/v1/workflows/" + id + "?wait=5s").get("status").asText())
        .isEqualTo("TERMINATED");
  }

  @Test
  void metrics_countInstancesByStatus() {
    String id = unique("metric");
    start("Greet", id, "\"m\"");
    awaitEnd(id);

    String text = api.get("/metrics").body();

    assertThat(text).containsPattern("redrive_workflow_instances\\{status=\"COMPLETED\"\\} [1-9]");
    assertThat(text).contains("redrive_workflow_instances{status=\"TERMINATED\"}");
  }
}
