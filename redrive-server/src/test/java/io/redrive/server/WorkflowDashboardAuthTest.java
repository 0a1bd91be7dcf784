package io.redrive.server;

import static io.redrive.server.UiClient.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Role;
import io.redrive.store.Store;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The workflow pages with keys, on SQLite and PostgreSQL: a viewer sees instances and no actions
 * and is refused a forged one (403, nothing changes); a producer may raise events but not
 * terminate; an instance outside the key's {@code workflows = ["in*"]} scope answers exactly as a
 * missing one and lists and searches leave it out, the API's wall. Its runtime keeps the default
 * unregistered backoff, long enough to see an instance wait for a version no node runs.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class WorkflowDashboardAuthTest {
  private static final String ROOT = "root-secret-0123456789abcdef";
  private static final String ADMIN = "admin-secret-0123456789abcdef";
  private static final String VIEWER = "viewer-secret-0123456789abcdef";
  private static final String PRODUCER = "producer-secret-0123456789abcdef";
  private static final Map<StoreKind, RedriveServer> SERVERS = new EnumMap<>(StoreKind.class);
  private static final Map<StoreKind, Store> STORES = new EnumMap<>(StoreKind.class);

  @Parameter StoreKind kind;
  private RedriveServer server;
  private HttpApiClient root;

  private static WorkflowRegistry registry() {
    WorkflowRegistry.Builder b = WorkflowRegistry.builder();
    for (String name : List.of("inWaits", "outWaits")) {
      b.orchestration(
          name,
          "1.0.0",
          String.class,
          String.class,
          (ctx, in) -> ctx.waitForEvent("go", String.class).await());
    }
    return b.build();
  }

  @BeforeEach
  void start() {
    server =
        SERVERS.computeIfAbsent(
            kind,
            k -> {
              Store store = k.newDatabase().open();
              STORES.put(k, store);
              List<ApiKey> keys =
                  List.of(
                      new ApiKey("root", ROOT, Role.ADMIN, List.of()),
                      new ApiKey("ada", ADMIN, Role.ADMIN, List.of(), List.of("in*")),
                      new ApiKey("vic", VIEWER, Role.VIEWER, List.of()),
                      new ApiKey("pat", PRODUCER, Role.PRODUCER, List.of(), List.of("in*")));
              return RedriveServer.start(
                  TestServers.config(),
                  new KeyAuthorizer(keys),
                  store,
                  redrive ->
                      WorkflowRuntime.builder(redrive, registry())
                          .nodeId("auth-node")
                          .pollInterval(Duration.ofMillis(50))
                          .build());
            });
    root = new HttpApiClient(server.baseUrl()).withKey(ROOT);
  }

  @AfterAll
  static void stop() {
    SERVERS.values().forEach(RedriveServer::stop);
    STORES.values().forEach(Store::close);
    SERVERS.clear();
    STORES.clear();
  }

  private String running(String name) {
    String id = TestServers.unique("wfa");
    Response r = root.post("/v1/workflows", "{\"name\":\"" + name + "\",\"id\":\"" + id + "\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    await().atMost(Duration.ofSeconds(30)).until(() -> status(id).equals("RUNNING"));
    return id;
  }

  private String status(String id) {
    return root.get("/v1/workflows/" + id).get("status").asText();
  }

  private UiClient signedIn(String key) throws Exception {
    UiClient ui = new UiClient(server.baseUrl());
    assertThat(ui.login(key).statusCode()).isEqualTo(303);
    return ui;
  }

  @Test
  void viewer_seesNoActions_andForgedActionsAreRefusedChangingNothing() throws Exception {
    String id = running("inWaits");
    UiClient vic = signedIn(VIEWER);
    HttpResponse<String> page = vic.get("/ui/workflows/" + id);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body())
        .contains("id=\"w-status\">running<")
        .doesNotContain("id=\"workflow-actions\"")
        .doesNotContain("id=\"raise-form\"");
    assertThat(vic.get("/ui/workflows/" + id + "/confirm?op=terminate").statusCode())
        .isEqualTo(403);
    String csrf = UiClient.csrfOf(page.body()); // the sign-out form's: a valid token
    for (String op : List.of("terminate", "retry", "delete", "events")) {
      HttpResponse<String> r =
          vic.post("/ui/workflows/" + id + "/" + op, form("_csrf", csrf, "name", "go"));
      assertThat(r.statusCode()).as(op).isEqualTo(403);
      assertThat(r.body()).as(op).contains("FORBIDDEN");
    }
    assertThat(status(id)).isEqualTo("RUNNING");
    assertThat(root.get("/v1/workflows/" + id).get("pending").get("events").asInt()).isZero();
    root.post("/v1/workflows/" + id + "/terminate", "{}");
  }

  /** A failure group's bulk retry is ADMIN's, as one instance's: a viewer is refused it. */
  @Test
  void viewer_seesFailureGroupsButNoRetryAll_andIsRefusedIt() throws Exception {
    UiClient vic = signedIn(VIEWER);
    HttpResponse<String> page = vic.get("/ui/workflows/failures");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).doesNotContain("retry-group");
    String key = "0123456789abcdef";
    assertThat(vic.get("/ui/workflows/failures/" + key + "/confirm").statusCode()).isEqualTo(403);
    HttpResponse<String> r =
        vic.post(
            "/ui/workflows/failures/" + key + "/retry",
            form("_csrf", UiClient.csrfOf(page.body()), "expected", "1"));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).contains("FORBIDDEN");
  }

  @Test
  void producer_mayRaiseAnEvent_butNotTerminate() throws Exception {
    String id = running("inWaits");
    UiClient pat = signedIn(PRODUCER);
    String page = pat.get("/ui/workflows/" + id).body();
    assertThat(page).contains("id=\"raise-form\"").doesNotContain("id=\"workflow-actions\"");
    String csrf = UiClient.csrfOf(page);
    assertThat(pat.post("/ui/workflows/" + id + "/terminate", form("_csrf", csrf)).statusCode())
        .isEqualTo(403);
    HttpResponse<String> raised =
        pat.post(
            "/ui/workflows/" + id + "/events",
            form("_csrf", csrf, "name", "go", "payload", "\"by pat\""));
    assertThat(raised.statusCode()).as(raised.body()).isEqualTo(303);
    await().atMost(Duration.ofSeconds(30)).until(() -> status(id).equals("COMPLETED"));
  }

  @Test
  void outOfScopeInstance_answersExactlyAsAMissingOne_andListsLeaveItOut() throws Exception {
    String in = running("inWaits");
    String out = running("outWaits");
    String ghost = TestServers.unique("ghost");
    UiClient ada = signedIn(ADMIN);

    HttpResponse<String> hidden = ada.get("/ui/workflows/" + out);
    HttpResponse<String> missing = ada.get("/ui/workflows/" + ghost);
    assertThat(hidden.statusCode()).isEqualTo(404).isEqualTo(missing.statusCode());
    assertThat(hidden.body().replace(out, "ID")).isEqualTo(missing.body().replace(ghost, "ID"));
    assertThat(hidden.body()).contains("INSTANCE_NOT_FOUND").doesNotContain("outWaits");
    assertThat(ada.get("/ui/workflows/" + out + "/confirm?op=terminate").statusCode())
        .isEqualTo(404);
    String list = ada.get("/ui/workflows").body();
    assertThat(list).contains(in).doesNotContain(out).doesNotContain("outWaits");
    assertThat(ada.get("/ui/workflows?name=outWaits").body()).doesNotContain(out);
    HttpResponse<String> search = ada.get("/ui/workflows?q=" + out);
    assertThat(search.statusCode()).isEqualTo(200);
    assertThat(search.body()).contains("No instance has this id").doesNotContain("data-id=");
    String csrf = UiClient.csrfOf(list);
    for (String op : List.of("terminate", "delete", "events")) {
      HttpResponse<String> r =
          ada.post("/ui/workflows/" + out + "/" + op, form("_csrf", csrf, "name", "go"));
      assertThat(r.statusCode()).as(op).isEqualTo(404);
    }
    assertThat(status(out)).isEqualTo("RUNNING");

    HttpResponse<String> terminated =
        ada.post("/ui/workflows/" + in + "/terminate", form("_csrf", csrf, "reason", "scoped"));
    assertThat(terminated.statusCode()).as(terminated.body()).isEqualTo(303);
    await().atMost(Duration.ofSeconds(30)).until(() -> status(in).equals("TERMINATED"));
    root.post("/v1/workflows/" + out + "/terminate", "{}");
  }

  @Test
  void versionNoNodeRuns_instancePageSaysItWaitsForIt() throws Exception {
    String id = TestServers.unique("wfv");
    Response r =
        root.post(
            "/v1/workflows", "{\"name\":\"inWaits\",\"version\":\"2.0.0\",\"id\":\"" + id + "\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    UiClient ada = signedIn(ADMIN);
    String page =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> ada.get("/ui/workflows/" + id).body(),
                body -> body.contains("id=\"waiting-reason\">unregistered<"));
    assertThat(page)
        .contains("inWaits@2.0.0 is not registered on node auth-node")
        .contains("(asked for 2.0.0)")
        .contains("data-outcome=\"UNREGISTERED\"");
    root.post("/v1/workflows/" + id + "/terminate", "{}");
  }
}
