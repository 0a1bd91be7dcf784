package io.redrive.server;

import static io.redrive.server.ApiTestBase.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Permission;
import io.redrive.server.auth.Role;
import io.redrive.store.Store;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The workflow endpoints' auth matrix over real HTTP: each role × each endpoint × an instance whose
 * orchestration is in or out of the key's {@code workflows = ["in*"]} scope. A role that lacks the
 * endpoint's permission gets 403 FORBIDDEN; an out-of-scope instance answers as a missing one (404
 * INSTANCE_NOT_FOUND), starting an out-of-scope name is 403, and lists never show one.
 */
class WorkflowAuthMatrixHttpTest {
  private static final String ROOT = "root-secret-0123456789abcdef";
  private static final String IN = "inOrder";
  private static final String OUT = "outOrder";

  private static Store store;
  private static RedriveServer server;
  private static HttpApiClient root;

  /** One call per workflow endpoint, on an instance (id) of an orchestration (name). */
  private enum Endpoint {
    START(Permission.PRODUCE, false),
    LIST(Permission.VIEW, false),
    GET(Permission.VIEW, true),
    HISTORY(Permission.VIEW, true),
    TIMELINE(Permission.VIEW, true),
    CHILDREN(Permission.VIEW, true),
    EVENTS(Permission.PRODUCE, true),
    TERMINATE(Permission.ADMIN, true),
    RETRY(Permission.ADMIN, true),
    DELETE(Permission.ADMIN, true);

    final Permission permission;
    final boolean instancePath;

    Endpoint(Permission permission, boolean instancePath) {
      this.permission = permission;
      this.instancePath = instancePath;
    }

    Response call(HttpApiClient api, String id, String name) {
      String at = "/v1/workflows/" + id;
      return switch (this) {
        case START ->
            api.post(
                "/v1/workflows",
                "{\"name\":\""
                    + name
                    + "\",\"id\":\""
                    + TestServers.unique("started")
                    + "\",\"delay\":\"1h\"}");
        case LIST -> api.get("/v1/workflows?name=" + name + "&limit=1000");
        case GET -> api.get(at);
        case HISTORY -> api.get(at + "/history?execution=all&turns=true");
        case TIMELINE -> api.get(at + "/timeline");
        case CHILDREN -> api.get(at + "/children");
        case EVENTS -> api.post(at + "/events", "{\"name\":\"ping\",\"payload\":1}");
        case TERMINATE -> api.post(at + "/terminate", "{\"reason\":\"matrix\"}");
        case RETRY -> api.post(at + "/retry", "{\"note\":\"matrix\"}");
        case DELETE -> api.delete(at + "?force=true");
      };
    }
  }

  /** A parent in scope with one child in and one out of scope; the children wait for "go". */
  private static WorkflowRegistry registry() {
    WorkflowRegistry.Builder b =
        WorkflowRegistry.builder()
            .orchestration(
                "inParent",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  ctx.allOf(
                          List.of(
                              ctx.callSubOrchestration("inChild", in, String.class),
                              ctx.callSubOrchestration("outChild", in, String.class)))
                      .await();
                  return "done";
                });
    for (String child : List.of("inChild", "outChild")) {
      b.orchestration(
          child,
          "1.0.0",
          String.class,
          String.class,
          (ctx, in) -> ctx.waitForEvent("go", String.class).await());
    }
    return b.build();
  }

  @BeforeAll
  static void start() {
    List<ApiKey> keys = new ArrayList<>();
    keys.add(new ApiKey("root", ROOT, Role.ADMIN, List.of()));
    for (Role role : Role.values()) {
      keys.add(
          new ApiKey(role.name().toLowerCase(), secret(role), role, List.of(), List.of("in*")));
    }
    store = StoreKind.SQLITE.newDatabase().open();
    server =
        RedriveServer.start(
            TestServers.config(),
            new KeyAuthorizer(keys),
            store,
            redrive ->
                WorkflowRuntime.builder(redrive, registry())
                    .nodeId("matrix-node")
                    .pollInterval(Duration.ofMillis(50))
                    .build());
    root = new HttpApiClient(server.baseUrl()).withKey(ROOT);
  }

  @AfterAll
  static void stop() {
    server.stop();
    store.close();
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

  /** Starts, with the root key, an instance that takes no turn for an hour: it stays PENDING. */
  private static String pending(String name) {
    String id = TestServers.unique("wf");
    Response r =
        root.post(
            "/v1/workflows", "{\"name\":\"" + name + "\",\"id\":\"" + id + "\",\"delay\":\"1h\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return id;
  }

  private static List<String> ids(Response list) {
    assertThat(list.status()).as(list.toString()).isEqualTo(200);
    List<String> ids = new ArrayList<>();
    list.get("instances").forEach(i -> ids.add(i.get("id").asText()));
    return ids;
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("matrix")
  void call_roleEndpointScope_allowedOnlyWhenRoleAndScopeGrantIt(
      Role role, Endpoint endpoint, String name) {
    String id = pending(name);
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));
    boolean inScope = name.equals(IN);

    Response r = endpoint.call(api, id, name);

    if (!role.grants(endpoint.permission)) {
      assertError(r, 403, "FORBIDDEN");
    } else if (inScope) {
      assertThat(r.status()).as(r.toString()).isNotIn(401, 403).isLessThan(500);
      if (endpoint == Endpoint.LIST) {
        assertThat(ids(r)).contains(id);
      }
    } else if (endpoint == Endpoint.START) {
      assertError(r, 403, "FORBIDDEN");
    } else if (endpoint == Endpoint.LIST) {
      assertThat(ids(r)).isEmpty();
    } else {
      assertError(r, 404, "INSTANCE_NOT_FOUND");
      assertThat(r.body()).doesNotContain(OUT);
    }
    if (!inScope || !role.grants(endpoint.permission)) {
      // refused: the instance is as it was
      JsonNode after = root.get("/v1/workflows/" + id).json();
      assertThat(after.get("status").asText()).isEqualTo("PENDING");
      assertThat(after.get("terminateRequested").asBoolean()).isFalse();
      assertThat(after.get("pending").get("events").asInt()).isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("roles")
  void get_outOfScopeInstance_answersExactlyAsAMissingOne(Role role) {
    String out = pending(OUT);
    String missing = TestServers.unique("ghost");
    HttpApiClient api = new HttpApiClient(server.baseUrl()).withKey(secret(role));

    Response other = api.get("/v1/workflows/" + out);
    Response absent = api.get("/v1/workflows/" + missing);

    assertError(other, 404, "INSTANCE_NOT_FOUND");
    assertThat(shape(other, out)).isEqualTo(shape(absent, missing));
    assertThat(root.get("/v1/workflows/" + out).status()).isEqualTo(200);
  }

  @Test
  void list_scopedKey_neverShowsOutOfScopeInstances() {
    String in = pending(IN);
    String out = pending(OUT);
    HttpApiClient viewer = new HttpApiClient(server.baseUrl()).withKey(secret(Role.VIEWER));

    List<String> seen = ids(viewer.get("/v1/workflows?limit=1000"));
    List<String> seenByRoot = ids(root.get("/v1/workflows?limit=1000"));

    assertThat(seen).contains(in).doesNotContain(out);
    assertThat(seenByRoot).contains(in, out);
    for (JsonNode i : viewer.get("/v1/workflows?limit=1000").get("instances")) {
      assertThat(i.get("name").asText()).startsWith("in");
    }
  }

  /**
   * A parent in scope with one child in and one out: the children list and a parent filter show
   * only the first, the other answers 404, and the tree may be deleted only by a key that sees it
   * whole.
   */
  @Test
  void tree_childOutOfScope_hiddenFromChildrenAndListsAndItsDeleteForbidden() {
    String parent = TestServers.unique("tree");
    Response started =
        root.post("/v1/workflows", "{\"name\":\"inParent\",\"id\":\"" + parent + "\"}");
    assertThat(started.status()).as(started.toString()).isEqualTo(201);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> ids(root.get("/v1/workflows/" + parent + "/children")).size() == 2);
    String outChild = null;
    String inChild = null;
    for (JsonNode c : root.get("/v1/workflows/" + parent + "/children").get("instances")) {
      if (c.get("name").asText().equals("outChild")) {
        outChild = c.get("id").asText();
      } else {
        inChild = c.get("id").asText();
      }
    }
    HttpApiClient admin = new HttpApiClient(server.baseUrl()).withKey(secret(Role.ADMIN));

    assertThat(ids(admin.get("/v1/workflows/" + parent + "/children"))).containsExactly(inChild);
    assertThat(ids(admin.get("/v1/workflows?parent=" + parent))).containsExactly(inChild);
    assertThat(ids(admin.get("/v1/workflows?root=" + parent + "&limit=1000")))
        .containsExactlyInAnyOrder(parent, inChild);
    assertError(admin.get("/v1/workflows/" + outChild), 404, "INSTANCE_NOT_FOUND");
    assertError(
        admin.post("/v1/workflows/" + outChild + "/events", "{\"name\":\"go\"}"),
        404,
        "INSTANCE_NOT_FOUND");

    Response delete = admin.delete("/v1/workflows/" + parent + "?force=true");
    assertError(delete, 403, "FORBIDDEN");
    assertThat(delete.body()).doesNotContain(outChild).doesNotContain("outChild");
    assertThat(root.get("/v1/workflows/" + outChild).status()).isEqualTo(200);
    assertThat(root.get("/v1/workflows/" + parent).status()).isEqualTo(200);

    Response byRoot = root.delete("/v1/workflows/" + parent + "?force=true");
    assertThat(byRoot.status()).as(byRoot.toString()).isEqualTo(200);
    assertThat(byRoot.get("instances").asInt()).isEqualTo(3);
  }

  /** The error with the requested id replaced, to compare the shape of two answers. */
  private static String shape(Response r, String requested) {
    return r.status()
        + " "
        + r.code()
        + " "
        + r.json().path("error").path("message").asText().replace(requested, "<id>");
  }

  static Stream<Role> roles() {
    return Stream.of(Role.values());
  }

  private static String secret(Role role) {
    return role.name().toLowerCase() + "-secret-0123456789abcdef";
  }
}
