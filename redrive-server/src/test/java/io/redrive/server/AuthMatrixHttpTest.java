package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Role;
import io.redrive.server.config.StoreSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The auth matrix over real HTTP: each role × each endpoint class × a queue in or out of the key's
 * scope. Allowed calls pass auth (any status but 401/403); the others get 403 FORBIDDEN.
 */
class AuthMatrixHttpTest {
  private static final String ROOT = "root-secret-0123456789abcdef";
  private static final String IN = "in.q";
  private static final String OUT = "out.q";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static HttpApiClient root;

  /** One representative endpoint per permission; the queue is filled in. */
  private enum Endpoint {
    VIEW_QUEUE(Permission.VIEW, (api, q) -> api.get("/v1/queues/" + q)),
    VIEW_MESSAGES(Permission.VIEW, (api, q) -> api.get("/v1/queues/" + q + "/messages")),
    VIEW_DEAD_GROUPS(Permission.VIEW, (api, q) -> api.get("/v1/queues/" + q + "/dead-groups")),
    VIEW_DEAD_GROUPS_BY_QUERY(Permission.VIEW, (api, q) -> api.get("/v1/dead-groups?queue=" + q)),
    VIEW_THROUGHPUT(Permission.VIEW, (api, q) -> api.get("/v1/queues/" + q + "/throughput")),
    VIEW_THROUGHPUT_OLD_ALIAS(
        Permission.VIEW, (api, q) -> api.get("/v1/queues/" + q + "/activity")),
    PRODUCE_ENQUEUE(
        Permission.PRODUCE,
        (api, q) -> api.post("/v1/queues/" + q + "/messages", "{\"messages\":[{\"type\":\"t\"}]}")),
    CONSUME_LEASE(Permission.CONSUME, (api, q) -> api.post("/v1/queues/" + q + "/lease", "{}")),
    ADMIN_UPDATE(Permission.ADMIN, (api, q) -> api.patch("/v1/queues/" + q, "{\"maxAttempts\":6}")),
    ADMIN_REDRIVE(
        Permission.ADMIN,
        (api, q) -> api.post("/v1/queues/" + q + "/redrive", "{\"dryRun\":true}")),
    ADMIN_RETRY_DEAD(
        Permission.ADMIN, (api, q) -> api.post("/v1/queues/" + q + "/retry", "{\"dryRun\":true}"));

    final Permission permission;
    final BiFunction<HttpApiClient, String, Response> call;

    Endpoint(Permission permission, BiFunction<HttpApiClient, String, Response> call) {
      this.permission = permission;
      this.call = call;
    }
  }

  @BeforeAll
  static void start() {
    List<ApiKey> keys = new ArrayList<>();
    keys.add(new ApiKey("root", ROOT, Role.ADMIN, List.of()));
    for (Role role : Role.values()) {
      keys.add(new ApiKey(role.name().toLowerCase(), secret(role), role, List.of("in.*")));
    }
    server =
        RedriveServer.start(
            TestServers.config().withStore(StoreSettings.sqlite(dir)), new KeyAuthorizer(keys));
    root = new HttpApiClient(server.baseUrl()).withKey(ROOT);
    for (String q : List.of(IN, OUT)) {
      assertThat(root.post("/v1/queues", "{\"name\":\"" + q + "\"}").status()).isEqualTo(201);
    }
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  static Stream<Arguments> matrix() {
    List<Arguments> out = new ArrayList<>();
    for (Role role : Role.values()) {
      for (Endpoint endpoint : Endpoint.values()) {
        out.add(Arguments.of(role, endpoint, IN));
        out.add(Arguments.of(role, endpoint, OUT));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("matrix")
  void call_roleEndpointScope_allowedOnlyWhenRoleAndScopeGrantIt(
      Role role, Endpoint endpoint, String queue) {
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));
    boolean allowed = role.grants(endpoint.permission) && queue.equals(IN);

    Response r = endpoint.call.apply(api, queue);

    if (allowed) {
      assertThat(r.status()).as(r.toString()).isNotIn(401, 403).isLessThan(300);
    } else {
      ApiTestBase.assertError(r, 403, "FORBIDDEN");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roles")
  void listQueues_scopedKey_seesOnlyItsQueues(Role role) {
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));
    List<String> names = new ArrayList<>();
    api.get("/v1/queues").get("queues").forEach(n -> names.add(n.get("name").asText()));
    assertThat(names).containsExactly(IN);
  }

  // ---- queue scopes are walls: nothing about other queues leaks to a scoped key ----

  private static String enqueue(String queue) {
    Response r =
        root.post("/v1/queues/" + queue + "/messages", "{\"messages\":[{\"type\":\"t\"}]}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return r.get("results").get(0).get("id").asText();
  }

  private static void createQueue(String body) {
    Response r = root.post("/v1/queues", body);
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
  }

  /** The error with the requested id replaced, to compare the shape of two answers. */
  private static String shape(Response r, String requested) {
    return r.status()
        + " "
        + r.code()
        + " "
        + r.json().path("error").path("message").asText().replace(requested, "<id>");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roles")
  void getMessage_otherQueuesMessage_answersExactlyAsAMissingOne(Role role) {
    createQueue("{\"name\":\"out.walls1\"}");
    String outId = enqueue("out.walls1");
    String missing = "0000" + outId.substring(4);
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));

    Response other = api.get("/v1/messages/" + outId);
    Response absent = api.get("/v1/messages/" + missing);
    Response otherPrefix = api.get("/v1/messages/" + outId.substring(0, 30));

    ApiTestBase.assertError(other, 404, "MESSAGE_NOT_FOUND");
    assertThat(shape(other, outId)).isEqualTo(shape(absent, missing));
    assertThat(shape(otherPrefix, outId.substring(0, 30))).isEqualTo(shape(absent, missing));
    for (Response r : List.of(other, otherPrefix)) {
      assertThat(r.body()).doesNotContain("out.");
    }
    assertThat(root.get("/v1/messages/" + outId).status()).isEqualTo(200);
    root.delete("/v1/queues/out.walls1");
  }

  /** {@code GET /v1/throughput} and its deprecated alias {@code GET /v1/activity}. */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"/v1/throughput", "/v1/activity"})
  void throughputOfAll_scopedKey_sumsOnlyItsQueues(String path) {
    String suffix = path.endsWith("activity") ? "alias" : "throughput";
    createQueue("{\"name\":\"in." + suffix + "\"}");
    createQueue("{\"name\":\"out." + suffix + "\"}");
    enqueue("in." + suffix);
    for (int i = 0; i < 3; i++) {
      enqueue("out." + suffix);
    }
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(Role.VIEWER));
    long visible = 0;
    long all = 0;
    for (var n : root.get("/v1/queues").get("queues")) {
      String name = n.get("name").asText();
      long enqueued =
          root
              .get("/v1/queues/" + name + "/throughput?minutes=60")
              .get("points")
              .findValues("enqueued")
              .stream()
              .mapToLong(v -> v.asLong())
              .sum();
      all += enqueued;
      visible += name.startsWith("in.") ? enqueued : 0;
    }

    Response scoped = api.get(path + "?minutes=60");
    Response rootSum = root.get(path + "?minutes=60");
    root.delete("/v1/queues/in." + suffix);
    root.delete("/v1/queues/out." + suffix);

    assertThat(scoped.status()).as(scoped.toString()).isEqualTo(200);
    assertThat(
            scoped.get("points").findValues("enqueued").stream().mapToLong(v -> v.asLong()).sum())
        .isEqualTo(visible)
        .isLessThan(all);
    assertThat(
            rootSum.get("points").findValues("enqueued").stream().mapToLong(v -> v.asLong()).sum())
        .isEqualTo(all);
  }

  @org.junit.jupiter.api.Test
  void resolvePrefix_scopedKey_countsOnlyVisibleIds() {
    createQueue("{\"name\":\"in.walls2\"}");
    createQueue("{\"name\":\"out.walls2\"}");
    String out1 = enqueue("out.walls2");
    String in1 = enqueue("in.walls2");
    String out2 = enqueue("out.walls2");
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(Role.VIEWER));
    String prefix = common(common(out1, in1), out2);
    assertThat(prefix.length()).isGreaterThanOrEqualTo(4);

    // the key's answer counts only visible ids (other tests' in.* messages may share the prefix)
    List<String> visible = new ArrayList<>();
    root.get("/v1/queues")
        .get("queues")
        .forEach(
            n -> {
              String name = n.get("name").asText();
              if (name.startsWith("in.")) {
                root.get("/v1/queues/" + name + "/messages?limit=1000")
                    .get("messages")
                    .forEach(m -> visible.add(m.get("id").asText()));
              }
            });
    visible.removeIf(id -> !id.startsWith(prefix));
    Response scoped = api.get("/v1/messages/" + prefix);
    if (visible.equals(List.of(in1))) {
      assertThat(scoped.status()).as(scoped.toString()).isEqualTo(200);
      assertThat(scoped.get("id").asText()).isEqualTo(in1);
    } else {
      ApiTestBase.assertError(scoped, 409, "AMBIGUOUS_ID");
    }
    assertThat(scoped.body()).doesNotContain(out1).doesNotContain(out2);
    ApiTestBase.assertError(root.get("/v1/messages/" + prefix), 409, "AMBIGUOUS_ID");

    // ambiguous among visible ids: names only those
    String in2 = enqueue("in.walls2");
    Response ambiguous = api.get("/v1/messages/" + common(prefix, in2));
    ApiTestBase.assertError(ambiguous, 409, "AMBIGUOUS_ID");
    assertThat(ambiguous.body()).doesNotContain(out1).doesNotContain(out2).doesNotContain("out.");

    // bulk ids: another queue's id is "not found", never forbidden
    Response bulk =
        new HttpApiClient(server.baseUrl())
            .withKey(secret(Role.ADMIN))
            .post("/v1/messages/drop", "{\"ids\":[\"" + out1 + "\"]}");
    assertThat(bulk.status()).as(bulk.toString()).isEqualTo(200);
    assertThat(bulk.get("notFound").get(0).asText()).isEqualTo(out1);
    assertThat(root.get("/v1/messages/" + out1).status()).isEqualTo(200);
    root.delete("/v1/queues/in.walls2");
    root.delete("/v1/queues/out.walls2");
  }

  @org.junit.jupiter.api.Test
  void settle_tokenOfAnotherQueuesMessage_answersAsAMissingLease() {
    createQueue("{\"name\":\"out.walls3\"}");
    String outId = enqueue("out.walls3");
    Response leased = root.post("/v1/queues/out.walls3/lease", "{}");
    String token = leased.get("messages").get(0).get("token").asText();
    String missingToken = "0000" + token.substring(4);
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(Role.CONSUMER));

    Response other = api.post("/v1/leases/" + token + "/complete");
    Response absent = api.post("/v1/leases/" + missingToken + "/complete");

    ApiTestBase.assertError(other, 404, "LEASE_NOT_FOUND");
    assertThat(shape(other, outId)).isEqualTo(shape(absent, "0000" + outId.substring(4)));
    assertThat(other.body()).doesNotContain("out.");
    assertThat(root.get("/v1/messages/" + outId).get("state").asText())
        .isEqualToIgnoringCase("leased");

    // completed by its holder: a repeat by the out-of-scope key still answers as a missing lease
    assertThat(root.post("/v1/leases/" + token + "/complete").status()).isEqualTo(200);
    Response repeatedByOther = api.post("/v1/leases/" + token + "/complete");
    ApiTestBase.assertError(repeatedByOther, 404, "LEASE_NOT_FOUND");
    assertThat(shape(repeatedByOther, outId)).isEqualTo(shape(absent, "0000" + outId.substring(4)));
    assertThat(repeatedByOther.body()).doesNotContain("out.");
    Response repeatedByRoot = root.post("/v1/leases/" + token + "/complete");
    assertThat(repeatedByRoot.status()).as(repeatedByRoot.toString()).isEqualTo(200);
    assertThat(repeatedByRoot.get("repeated").asBoolean()).isTrue();
    root.delete("/v1/queues/out.walls3");
  }

  @org.junit.jupiter.api.Test
  void settleBatch_tokenOfAnotherQueuesMessage_isAnsweredAsMissing_andNeverSettled() {
    createQueue("{\"name\":\"out.walls5\"}");
    createQueue("{\"name\":\"in.walls5\"}");
    String outId = enqueue("out.walls5");
    String inId = enqueue("in.walls5");
    String outToken =
        root.post("/v1/queues/out.walls5/lease", "{}").get("messages").get(0).get("token").asText();
    String inToken =
        root.post("/v1/queues/in.walls5/lease", "{}").get("messages").get(0).get("token").asText();
    String missingToken = "0000" + outToken.substring(4);
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(Role.CONSUMER));
    String body =
        "{\"settles\":[{\"token\":\"%s\",\"action\":\"complete\"},{\"token\":\"%s\",\"action\":\"release\"},{\"token\":\"%s\",\"action\":\"complete\"}]}";

    Response r =
        api.post("/v1/leases/settle", String.format(body, outToken, missingToken, inToken));

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.get("results").get(0).get("lost").asText()).isEqualTo("NOT_FOUND");
    assertThat(r.get("results").get(1).get("lost").asText()).isEqualTo("NOT_FOUND");
    assertThat(r.get("results").get(2).get("result").get("id").asText()).isEqualTo(inId);
    assertThat(r.body()).doesNotContain("out.");
    assertThat(root.get("/v1/messages/" + outId).get("state").asText())
        .isEqualToIgnoringCase("leased");

    // completed by its holder: a repeat by the out-of-scope key is still answered as missing
    assertThat(root.post("/v1/leases/" + outToken + "/complete").status()).isEqualTo(200);
    Response repeated =
        api.post(
            "/v1/leases/settle",
            "{\"settles\":[{\"token\":\"" + outToken + "\",\"action\":\"complete\"}]}");
    assertThat(repeated.status()).as(repeated.toString()).isEqualTo(200);
    assertThat(repeated.get("results").get(0).get("lost").asText()).isEqualTo("NOT_FOUND");
    assertThat(repeated.body()).doesNotContain("out.");
    Response viewer =
        new HttpApiClient(server.baseUrl())
            .withKey(secret(Role.VIEWER))
            .post(
                "/v1/leases/settle",
                "{\"settles\":[{\"token\":\"" + inToken + "\",\"action\":\"complete\"}]}");
    ApiTestBase.assertError(viewer, 403, "FORBIDDEN");
    root.delete("/v1/queues/out.walls5");
    root.delete("/v1/queues/in.walls5");
  }

  @org.junit.jupiter.api.Test
  void createOrUpdate_deadLetterQueueOutOfScope_refusedAlikeWhetherItExistsOrNot() {
    createQueue("{\"name\":\"out.walls4\"}");
    createQueue("{\"name\":\"in.walls4\"}");
    HttpApiClient admin = new HttpApiClient(server.baseUrl()).withKey(secret(Role.ADMIN));

    List<String> answers = new ArrayList<>();
    for (String dlq : List.of("out.walls4", "out.missing4")) {
      Response create =
          admin.post(
              "/v1/queues",
              "{\"name\":\"in.new4\",\"deadLetter\":\"move\",\"deadLetterQueue\":\"" + dlq + "\"}");
      Response update =
          admin.patch(
              "/v1/queues/in.walls4",
              "{\"deadLetter\":\"move\",\"deadLetterQueue\":\"" + dlq + "\"}");
      ApiTestBase.assertError(create, 403, "FORBIDDEN");
      ApiTestBase.assertError(update, 403, "FORBIDDEN");
      answers.add(shape(create, dlq) + " | " + shape(update, dlq));
    }

    assertThat(answers.get(0)).isEqualTo(answers.get(1));
    ApiTestBase.assertError(root.get("/v1/queues/in.new4"), 404, "QUEUE_NOT_FOUND");
    assertThat(root.get("/v1/queues/in.walls4").get("deadLetterQueue").isNull()).isTrue();
    // inside its scope the same admin may name a dead-letter queue
    Response inScope =
        admin.patch(
            "/v1/queues/in.walls4", "{\"deadLetter\":\"move\",\"deadLetterQueue\":\"in.q\"}");
    assertThat(inScope.status()).as(inScope.toString()).isEqualTo(200);
    assertThat(inScope.get("deadLetterQueue").asText()).isEqualTo("in.q");
    root.delete("/v1/queues/in.walls4");
    root.delete("/v1/queues/out.walls4");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roles")
  void listQueues_deadLetterQueueOutOfScope_isHidden(Role role) {
    createQueue("{\"name\":\"out.dlq5\"}");
    createQueue(
        "{\"name\":\"in.walls5\",\"deadLetter\":\"move\",\"deadLetterQueue\":\"out.dlq5\"}");
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));

    Response list = api.get("/v1/queues");
    Response one = api.get("/v1/queues/in.walls5");

    assertThat(list.body()).doesNotContain("out.dlq5").contains("(hidden)");
    assertThat(one.body()).doesNotContain("out.dlq5");
    assertThat(one.get("deadLetterQueue").asText()).isEqualTo("(hidden)");
    assertThat(root.get("/v1/queues").body()).contains("out.dlq5");
    root.delete("/v1/queues/in.walls5");
    root.delete("/v1/queues/out.dlq5");
  }

  @org.junit.jupiter.api.Test
  void fail_movedToDeadLetterQueueOutOfScope_hidesItsName() {
    createQueue("{\"name\":\"out.dlq6\"}");
    createQueue(
        "{\"name\":\"in.walls6\",\"deadLetter\":\"move\",\"deadLetterQueue\":\"out.dlq6\"}");
    enqueue("in.walls6");
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(Role.CONSUMER));
    String token =
        api.post("/v1/queues/in.walls6/lease", "{}").get("messages").get(0).get("token").asText();

    Response failed =
        api.post("/v1/leases/" + token + "/fail", "{\"reason\":\"VALIDATION_FAILURE\"}");

    assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    assertThat(failed.get("state").asText()).isEqualToIgnoringCase("dead");
    assertThat(failed.get("deadLetterQueue").asText()).isEqualTo("(hidden)");
    assertThat(failed.body()).doesNotContain("out.dlq6");
    root.delete("/v1/queues/in.walls6");
    root.delete("/v1/queues/out.dlq6");
  }

  @org.junit.jupiter.api.Test
  void abandonThenFail_withDeadLetterQueueOutOfScope_neverNameIt() {
    createQueue("{\"name\":\"out.dlq8\"}");
    createQueue("{\"name\":\"in.walls8\",\"maxAttempts\":5,\"deadLetterQueue\":\"out.dlq8\"}");
    enqueue("in.walls8");
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(Role.CONSUMER));
    String first =
        api.post("/v1/queues/in.walls8/lease", "{}").get("messages").get(0).get("token").asText();

    Response abandoned = api.post("/v1/leases/" + first + "/abandon", "{\"note\":\"busy\"}");
    assertThat(abandoned.status()).as(abandoned.toString()).isEqualTo(200);
    assertThat(abandoned.body()).doesNotContain("out.dlq8");

    String second =
        api.post("/v1/queues/in.walls8/lease", "{}").get("messages").get(0).get("token").asText();
    Response failed =
        api.post("/v1/leases/" + second + "/fail", "{\"reason\":\"VALIDATION_FAILURE\"}");
    assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    assertThat(failed.get("deadLetterQueue").asText()).isEqualTo("(hidden)");
    assertThat(failed.body()).doesNotContain("out.dlq8");
    root.delete("/v1/queues/in.walls8");
    root.delete("/v1/queues/out.dlq8");
  }

  /**
   * A dead-letter copy in a queue in scope, moved there from a queue out of scope: the key sees
   * neither that queue's name nor the message's id there, in the message, its list or its history;
   * and it may not redrive it back there (the refusal names neither), only to a queue of its own.
   */
  @org.junit.jupiter.api.Test
  void deadLetterCopyFromQueueOutOfScope_hidesItsSource_andRedrivesOnlyIntoScope() {
    createQueue("{\"name\":\"in.dlq9\"}");
    createQueue("{\"name\":\"out.src9\",\"deadLetterQueue\":\"in.dlq9\"}");
    String original = enqueue("out.src9");
    String token =
        root.post("/v1/queues/out.src9/lease", "{}").get("messages").get(0).get("token").asText();
    assertThat(
            root.post("/v1/leases/" + token + "/fail", "{\"reason\":\"VALIDATION_FAILURE\"}")
                .status())
        .isEqualTo(200);
    HttpApiClient viewer = new HttpApiClient(server.baseUrl()).withKey(secret(Role.VIEWER));

    Response list = viewer.get("/v1/queues/in.dlq9/messages");
    assertThat(list.status()).as(list.toString()).isEqualTo(200);
    assertThat(list.get("messages").size()).isEqualTo(1);
    JsonNode listed = list.get("messages").get(0);
    assertThat(listed.get("sourceQueue").asText()).isEqualTo("(hidden)");
    assertThat(listed.get("sourceId").asText()).isEqualTo("(hidden)");
    Response one = viewer.get("/v1/messages/" + listed.get("id").asText());
    assertThat(one.status()).as(one.toString()).isEqualTo(200);
    assertThat(one.get("sourceQueue").asText()).isEqualTo("(hidden)");
    assertThat(one.get("history").toString()).contains("moved from (hidden)");
    for (Response r : List.of(list, one)) {
      assertThat(r.body()).doesNotContain("out.src9").doesNotContain(original);
    }
    // An unlimited key still sees where it came from.
    assertThat(root.get("/v1/messages/" + listed.get("id").asText()).get("sourceQueue").asText())
        .isEqualTo("out.src9");
    // The lineage keeps the same wall: from the copy, only the copy; from the original id,
    // nothing, exactly as for an id that never existed; the unlimited key sees both.
    String copy = listed.get("id").asText();
    Response fromCopy = viewer.get("/v1/messages/" + copy + "/lineage");
    assertThat(fromCopy.status()).as(fromCopy.toString()).isEqualTo(200);
    assertThat(fromCopy.get("links").size()).isOne();
    assertThat(fromCopy.body()).doesNotContain("out.src9").doesNotContain(original);
    for (String path :
        List.of("/v1/messages/" + original + "/lineage", "/v1/messages/" + original)) {
      Response hidden = viewer.get(path);
      ApiTestBase.assertError(hidden, 404, "MESSAGE_NOT_FOUND");
      assertThat(hidden.body()).as(path).doesNotContain(copy).doesNotContain("in.dlq9");
    }
    assertThat(root.get("/v1/messages/" + copy + "/lineage").get("links").size()).isEqualTo(2);

    HttpApiClient admin = new HttpApiClient(server.baseUrl()).withKey(secret(Role.ADMIN));
    for (String body : List.of("{}", "{\"dryRun\":true}")) {
      Response back = admin.post("/v1/queues/in.dlq9/redrive", body);
      assertThat(back.status()).as(back.toString()).isEqualTo(403);
      assertThat(back.code()).isEqualTo("FORBIDDEN");
      assertThat(back.body()).doesNotContain("out.src9");
    }
    assertThat(root.get("/v1/queues/in.dlq9/messages").get("messages").size()).isEqualTo(1);
    Response into = admin.post("/v1/queues/in.dlq9/redrive", "{\"to\":\"" + IN + "\"}");
    assertThat(into.status()).as(into.toString()).isEqualTo(200);
    assertThat(into.get("moves").get(0).get("toQueue").asText()).isEqualTo(IN);
    assertThat(root.get("/v1/queues/in.dlq9/messages").get("messages").size()).isZero();
    root.delete("/v1/queues/out.src9");
    root.delete("/v1/queues/in.dlq9");
  }

  /** The workers list keeps the wall: a scoped key sees leases in its queues only. */
  @org.junit.jupiter.api.Test
  void workers_scopedKey_seesOnlyLeasesInItsQueues() {
    createQueue("{\"name\":\"in.work5\"}");
    createQueue("{\"name\":\"out.work5\"}");
    enqueue("in.work5");
    enqueue("out.work5");
    assertThat(root.post("/v1/queues/in.work5/lease", "{\"worker\":\"inside-5\"}").status())
        .isEqualTo(200);
    assertThat(root.post("/v1/queues/out.work5/lease", "{\"worker\":\"outside-5\"}").status())
        .isEqualTo(200);
    HttpApiClient viewer = new HttpApiClient(server.baseUrl()).withKey(secret(Role.VIEWER));
    Response r = viewer.get("/v1/workers");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(r.body()).contains("inside-5").doesNotContain("outside-5").doesNotContain("out.");
    assertThat(viewer.get("/v1/workers?queue=out.work5").status()).isIn(403, 404);
    assertThat(root.get("/v1/workers").body()).contains("inside-5").contains("outside-5");
    root.delete("/v1/queues/in.work5");
    root.delete("/v1/queues/out.work5");
  }

  private static String common(String a, String b) {
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return a.substring(0, i);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roles")
  void deadGroups_scopedKey_countsOnlyItsQueues(Role role) {
    createQueue("{\"name\":\"in.groups7\"}");
    createQueue("{\"name\":\"out.groups7\"}");
    for (String q : List.of("in.groups7", "out.groups7")) {
      enqueue(q);
      String token =
          root.post("/v1/queues/" + q + "/lease", "{}")
              .get("messages")
              .get(0)
              .get("token")
              .asText();
      root.post("/v1/leases/" + token + "/fail", "{\"reason\":\"VALIDATION_FAILURE\"}");
    }
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));

    Response mine = api.get("/v1/dead-groups");

    List<String> queues = new ArrayList<>();
    mine.get("groups").forEach(g -> queues.add(g.get("queue").asText()));
    assertThat(queues).containsExactly("in.groups7");
    assertThat(mine.body()).doesNotContain("out.groups7");
    List<String> all = new ArrayList<>();
    root.get("/v1/dead-groups").get("groups").forEach(g -> all.add(g.get("queue").asText()));
    assertThat(all).containsExactlyInAnyOrder("in.groups7", "out.groups7");
    root.delete("/v1/queues/in.groups7");
    root.delete("/v1/queues/out.groups7");
  }

  static Stream<Role> roles() {
    return Stream.of(Role.values());
  }

  private static String secret(Role role) {
    return role.name().toLowerCase() + "-secret-0123456789abcdef";
  }
}
