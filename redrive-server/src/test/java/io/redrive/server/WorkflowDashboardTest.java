package io.redrive.server;

import static io.redrive.server.UiClient.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The dashboard's workflow pages over real HTTP on SQLite and PostgreSQL, against a keyless server
 * running a workflow runtime (the visitor is the anonymous admin, still bound to a session and its
 * form token): the list's filters, paging and search, the instance page's sections, the actions
 * (retry, terminate, raise, delete) through their confirmation, the CSRF check, the links between
 * activity messages and their instance, and hostile stored text shown as text.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class WorkflowDashboardTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Pattern MESSAGE_LINK =
      Pattern.compile(
          "id=\"activity-messages\">\\s*<li><a class=\"mono\" href=\"/ui/messages/([^\"]+)\"");

  @Parameter StoreKind kind;
  private HttpApiClient api;
  private UiClient ui;

  @BeforeEach
  void connect() {
    RedriveServer server = WorkflowServers.of(kind);
    api = new HttpApiClient(server.baseUrl());
    ui = new UiClient(server.baseUrl());
  }

  private void start(String name, String id, String input) {
    Response r =
        api.post(
            "/v1/workflows",
            "{\"name\":\"" + name + "\",\"id\":\"" + id + "\",\"input\":" + input + "}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
  }

  private void startLater(String name, String id) {
    Response r =
        api.post(
            "/v1/workflows", "{\"name\":\"" + name + "\",\"id\":\"" + id + "\",\"delay\":\"1h\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
  }

  private String status(String id) {
    return api.get("/v1/workflows/" + id).get("status").asText();
  }

  private void awaitStatus(String id, String status) {
    await().atMost(WAIT).until(() -> status(id).equals(status));
  }

  private String page(String path) throws Exception {
    HttpResponse<String> r = ui.get(path);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  /** Opens the confirmation page of {@code op} and posts its form. */
  private HttpResponse<String> confirmAndPost(String id, String op, String... fields)
      throws Exception {
    String confirm = page("/ui/workflows/" + id + "/confirm?op=" + op);
    assertThat(confirm).contains("id=\"confirm-form\"");
    String[] pairs = new String[fields.length + 2];
    pairs[0] = "_csrf";
    pairs[1] = UiClient.csrfOf(confirm);
    System.arraycopy(fields, 0, pairs, 2, fields.length);
    return ui.post("/ui/workflows/" + id + "/" + op, form(pairs));
  }

  @Test
  void nav_linksTheWorkflowPages() throws Exception {
    assertThat(page("/ui")).contains("href=\"/ui/workflows\" id=\"nav-workflows\"");
  }

  @Test
  void list_filtersByStatusNameVersionAndTime() throws Exception {
    String done = TestServers.unique("wfl-done");
    String waits = TestServers.unique("wfl-waits");
    Instant before = Instant.now().minusSeconds(1);
    start("Greet", done, "\"ada\"");
    start("WaitsEvent", waits, "null");
    awaitStatus(done, "COMPLETED");
    awaitStatus(waits, "RUNNING");

    String running = page("/ui/workflows?status=running&name=WaitsEvent");
    assertThat(running).contains("data-id=\"" + waits + "\"").doesNotContain(done);
    String completed = page("/ui/workflows?status=completed&name=Greet&version=1.0.0");
    assertThat(completed).contains("data-id=\"" + done + "\"").doesNotContain(waits);
    assertThat(page("/ui/workflows?name=Greet&version=9.9.9")).doesNotContain(done);
    assertThat(page("/ui/workflows?since=" + before)).contains(done).contains(waits);
    assertThat(page("/ui/workflows?before=" + before)).doesNotContain(done).doesNotContain(waits);
    String local = before.toString().substring(0, 16); // a datetime-local field's value
    assertThat(page("/ui/workflows?name=Greet&since=" + local)).contains(done);
    HttpResponse<String> bad = ui.get("/ui/workflows?status=sleeping");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("status: unknown status");
    assertThat(ui.get("/ui/workflows?since=yesterday").statusCode()).isEqualTo(400);
    api.post("/v1/workflows/" + waits + "/terminate", "{}");
  }

  @Test
  void list_pagesForwardAndBack() throws Exception {
    String name = "Paged" + TestServers.unique("n").replace("-", "");
    for (int i = 0; i < 52; i++) {
      startLater(name, TestServers.unique("wfp"));
    }
    String first = page("/ui/workflows?name=" + name);
    assertThat(rows(first)).isEqualTo(50);
    assertThat(first).doesNotContain("id=\"previous-page\"");
    String second = page(link(first, "next-page"));
    assertThat(rows(second)).isEqualTo(2);
    assertThat(second).doesNotContain("id=\"next-page\"");
    String back = page(link(second, "previous-page"));
    assertThat(rows(back)).isEqualTo(50);
    assertThat(back).doesNotContain("id=\"previous-page\"");
    assertThat(ui.get("/ui/workflows?after=abc").statusCode()).isEqualTo(400);
  }

  private static int rows(String html) {
    return html.split("<tr data-id=", -1).length - 1;
  }

  /** The history rows' event ids, in order. */
  private static List<String> events(String html) {
    List<String> ids = new java.util.ArrayList<>();
    Matcher m = Pattern.compile("<tr data-event=\"([0-9]+)\"").matcher(html);
    while (m.find()) {
      ids.add(m.group(1));
    }
    return ids;
  }

  private static String link(String html, String id) {
    Matcher m = Pattern.compile("id=\"" + id + "\" href=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as("link " + id).isTrue();
    return m.group(1).replace("&amp;", "&");
  }

  @Test
  void search_exactIdOrUniquePrefixOpensTheInstance_aCommonPrefixLists() throws Exception {
    String stem = TestServers.unique("wfs");
    startLater("Greet", stem + "-one");
    startLater("Greet", stem + "-two");

    HttpResponse<String> exact = ui.get("/ui/workflows?q=" + stem + "-one");
    assertThat(exact.statusCode()).isEqualTo(303);
    assertThat(exact.headers().firstValue("Location").orElseThrow())
        .contains("/ui/workflows/" + stem + "-one");
    HttpResponse<String> prefix = ui.get("/ui/workflows?q=" + stem + "-tw");
    assertThat(prefix.statusCode()).isEqualTo(303);
    assertThat(prefix.headers().firstValue("Location").orElseThrow())
        .contains("/ui/workflows/" + stem + "-two");
    String both = page("/ui/workflows?q=" + stem);
    assertThat(both)
        .contains("data-id=\"" + stem + "-one\"")
        .contains("data-id=\"" + stem + "-two\"");
    assertThat(both).contains("2 instances match");
    assertThat(page("/ui/workflows?q=" + stem + "-none")).contains("No instance has this id");
  }

  @Test
  void instancePage_showsStatusInputOutputTimelineHistoryAndTree() throws Exception {
    String parent = TestServers.unique("wfparent");
    start("Parent", parent, "\"kit\"");
    awaitStatus(parent, "COMPLETED");
    String child =
        api.get("/v1/workflows/" + parent + "/children").get("instances").get(0).get("id").asText();

    String html = page("/ui/workflows/" + parent);
    assertThat(html).contains("id=\"w-status\">completed<");
    assertThat(html).contains("id=\"w-name\">Parent<").contains("id=\"w-version\">1.0.0");
    assertThat(html).contains("id=\"input\">\"kit\"").contains("parent of hello KIT");
    assertThat(html).contains("data-kind=\"EVENT\"").contains("ORCHESTRATION_COMPLETED");
    assertThat(html).contains("id=\"history\"").contains("CHILD_COMPLETED");
    assertThat(html)
        .contains("id=\"children\"")
        .contains("href=\"/ui/workflows/" + UiFmt.seg(child));
    assertThat(html).contains("id=\"delete\"").doesNotContain("id=\"retry\"");

    String childPage = page("/ui/workflows/" + UiFmt.seg(child));
    assertThat(childPage).contains("id=\"parent\" href=\"/ui/workflows/" + parent + "\"");
    assertThat(childPage).contains("data-kind=\"ACTIVITY_ATTEMPT\"").contains("on server-node");
    assertThat(childPage).doesNotContain("id=\"delete\""); // a child goes with its root
    assertThat(page("/ui/workflows?parent=" + parent))
        .contains("data-id=\"" + child + "\"")
        .doesNotContain("data-id=\"" + parent + "\"");
  }

  @Test
  void history_pagesWithinAnExecution_andEachExecutionCanBeShown() throws Exception {
    String id = TestServers.unique("wfloop");
    start("Loops", id, "1");
    awaitStatus(id, "COMPLETED");

    String current = page("/ui/workflows/" + id);
    assertThat(current).contains("History (execution 2)").contains("id=\"executions\"");
    assertThat(current).contains("href=\"/ui/workflows/" + id + "?execution=1\"");
    int firstPage = current.split("<tr data-event=", -1).length - 1;
    assertThat(firstPage).isEqualTo(100);
    String second = page(link(current, "history-next"));
    assertThat(second).contains("History (execution 2)").contains("id=\"history-first\"");
    assertThat(second.split("<tr data-event=", -1).length - 1)
        .isPositive()
        .isLessThan(100)
        .isEqualTo(api.get("/v1/workflows/" + id + "/history").get("events").size() - firstPage);
    assertThat(current).doesNotContain("id=\"history-previous\"");
    String back = page(link(second, "history-previous"));
    assertThat(events(back)).as("Previous events: the first page again").isEqualTo(events(current));
    String older = page("/ui/workflows/" + id + "?execution=1");
    assertThat(older).contains("History (execution 1)").contains("CONTINUED_AS_NEW");
    assertThat(ui.get("/ui/workflows/" + id + "?execution=3").statusCode()).isEqualTo(400);
  }

  @Test
  void activityMessage_andItsInstance_linkEachOther() throws Exception {
    String id = TestServers.unique("wfmsg");
    start("CallsMissing", id, "\"x\"");
    // Hold the activity's message as a worker would, so it is a live delivery on the timeline.
    String messageId =
        await()
            .atMost(WAIT)
            .until(
                () -> {
                  Response leased =
                      api.post(
                          "/v1/queues/wf.activities/lease",
                          "{\"worker\":\"ui-w\",\"max\":10,\"wait\":\"200ms\","
                              + "\"types\":[\"Missing\"]}");
                  String mine = null;
                  for (JsonNode m : leased.get("messages")) {
                    if (id.equals(m.get("headers").path("wf-instance").asText())) {
                      mine = m.get("id").asText();
                    } else {
                      api.post(
                          "/v1/leases/" + m.get("token").asText() + "/fail",
                          "{\"reason\":\"UNREGISTERED_HANDLER\",\"retryAfter\":\"10ms\"}");
                    }
                  }
                  return mine;
                },
                m -> m != null);

    String html = page("/ui/workflows/" + id);
    Matcher link = MESSAGE_LINK.matcher(html);
    assertThat(link.find()).as(html).isTrue();
    assertThat(link.group(1)).isEqualTo(UiFmt.seg(messageId));
    assertThat(html).contains("IN_PROGRESS".toLowerCase().replace('_', ' '));
    String message = page("/ui/messages/" + UiFmt.seg(messageId));
    assertThat(message)
        .contains("id=\"workflow-instance\" href=\"/ui/workflows/" + UiFmt.seg(id) + "\"");
    api.post("/v1/workflows/" + id + "/terminate", "{}");
  }

  /** A failure its own code decided is final: no Retry button (the server would refuse it). */
  @Test
  void applicationFailure_offersNoRetry() throws Exception {
    String id = TestServers.unique("wfthrows");
    start("Throws", id, "\"no\"");
    awaitStatus(id, "FAILED");
    assertThat(page("/ui/workflows/" + id)).doesNotContain("confirm?op=retry");
  }

  @Test
  void retry_ofAFailedInstance_throughItsConfirmation_completesIt() throws Exception {
    String id = TestServers.unique("wfretry");
    WorkflowServers.BROKEN.add(id);
    start("Fragile", id, "\"" + id + "\"");
    awaitStatus(id, "FAILED");
    String html = page("/ui/workflows/" + id);
    assertThat(html).contains("id=\"failure-reason\">POISON<").contains("mid-deploy");
    assertThat(html).contains("href=\"/ui/workflows/" + id + "/confirm?op=retry\"");
    assertThat(html).doesNotContain("id=\"terminate\"");

    WorkflowServers.BROKEN.remove(id);
    HttpResponse<String> posted = confirmAndPost(id, "retry", "note", "fixed deploy");

    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(303);
    assertThat(posted.headers().firstValue("Location").orElseThrow())
        .contains("/ui/workflows/" + id);
    awaitStatus(id, "COMPLETED");
    assertThat(page("/ui/workflows/" + id)).contains("id=\"output\">\"fixed\"");
    HttpResponse<String> again = confirmAndPost(id, "retry");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("NOT_FAILED");
  }

  @Test
  void raiseEvent_terminate_andDelete_fromThePages() throws Exception {
    String raised = TestServers.unique("wfraise");
    start("WaitsEvent", raised, "null");
    awaitStatus(raised, "RUNNING");
    String html = page("/ui/workflows/" + raised);
    assertThat(html).contains("id=\"raise-form\"");
    HttpResponse<String> bad =
        ui.post(
            "/ui/workflows/" + raised + "/events",
            form("_csrf", UiClient.csrfOf(html), "name", "go", "payload", "{not json"));
    assertThat(bad.statusCode()).isEqualTo(400);
    HttpResponse<String> ok =
        ui.post(
            "/ui/workflows/" + raised + "/events",
            form("_csrf", UiClient.csrfOf(html), "name", "go", "payload", "\"green\""));
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(303);
    awaitStatus(raised, "COMPLETED");
    assertThat(api.get("/v1/workflows/" + raised).get("output").asText()).isEqualTo("green");

    String stopped = TestServers.unique("wfterm");
    start("WaitsEvent", stopped, "null");
    awaitStatus(stopped, "RUNNING");
    HttpResponse<String> terminated = confirmAndPost(stopped, "terminate", "reason", "no longer");
    assertThat(terminated.statusCode()).as(terminated.body()).isEqualTo(303);
    awaitStatus(stopped, "TERMINATED");
    assertThat(page("/ui/workflows/" + stopped)).contains("no longer");

    HttpResponse<String> deleted = confirmAndPost(stopped, "delete");
    assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(303);
    assertThat(deleted.headers().firstValue("Location").orElseThrow())
        .contains("deleted=" + stopped);
    assertThat(api.get("/v1/workflows/" + stopped).status()).isEqualTo(404);
    HttpResponse<String> gone = ui.get("/ui/workflows/" + stopped);
    assertThat(gone.statusCode()).isEqualTo(404);
    assertThat(gone.body()).contains("INSTANCE_NOT_FOUND");
  }

  @Test
  void actions_withoutTheSessionsToken_refusedAndNothingChanges() throws Exception {
    String id = TestServers.unique("wfcsrf");
    start("WaitsEvent", id, "null");
    awaitStatus(id, "RUNNING");
    page("/ui/workflows/" + id); // opens the session
    for (String op : List.of("terminate", "events", "delete", "retry")) {
      HttpResponse<String> r = ui.post("/ui/workflows/" + id + "/" + op, form("name", "go"));
      assertThat(r.statusCode()).as(op).isEqualTo(403);
      assertThat(r.body()).contains("CSRF_CHECK_FAILED");
      HttpResponse<String> wrong =
          ui.post("/ui/workflows/" + id + "/" + op, form("_csrf", "forged", "name", "go"));
      assertThat(wrong.statusCode()).as(op).isEqualTo(403);
    }
    assertThat(status(id)).isEqualTo("RUNNING");
    assertThat(api.get("/v1/workflows/" + id).get("pending").get("events").asInt()).isZero();
    api.post("/v1/workflows/" + id + "/terminate", "{}");
  }

  @Test
  void hostileText_inNamesInputsOutputsEventsAndFailures_showsAsText() throws Exception {
    String evil = "<script>alert(1)</script>";
    String named = TestServers.unique("wfevil");
    Response r =
        api.post(
            "/v1/workflows",
            "{\"name\":\"" + evil + "\",\"id\":\"" + named + "\",\"delay\":\"1h\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    String thrower = TestServers.unique("wfevilthrows");
    start("Throws", thrower, "\"" + evil + "\"");
    String greet = TestServers.unique("wfevilgreet");
    start("Greet", greet, "\"" + evil + "\"");
    String waits = TestServers.unique("wfevilwaits");
    start("WaitsEvent", waits, "null");
    awaitStatus(thrower, "FAILED");
    awaitStatus(greet, "COMPLETED");
    awaitStatus(waits, "RUNNING");
    String html = page("/ui/workflows/" + waits);
    ui.post(
        "/ui/workflows/" + waits + "/events",
        form("_csrf", UiClient.csrfOf(html), "name", evil, "payload", "\"" + evil + "\""));

    String escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
    for (String path :
        List.of(
            "/ui/workflows",
            "/ui/workflows?name=" + UiFmt.q(evil),
            "/ui/workflows/" + named,
            "/ui/workflows/" + thrower,
            "/ui/workflows/" + greet,
            "/ui/workflows/" + waits,
            "/ui/workflows/" + named + "/confirm?op=terminate")) {
      String body = page(path);
      assertThat(body).as(path).doesNotContain("<script>alert").doesNotContain("<SCRIPT>");
    }
    assertThat(page("/ui/workflows/" + named)).contains("id=\"w-name\">" + escaped + "<");
    assertThat(page("/ui/workflows/" + thrower)).contains("the code decided: " + escaped);
    assertThat(page("/ui/workflows/" + greet))
        .contains("hello &lt;SCRIPT&gt;ALERT(1)&lt;/SCRIPT&gt;");
    api.post("/v1/workflows/" + waits + "/terminate", "{}");
    api.post("/v1/workflows/" + named + "/terminate", "{}");
  }

  /** A NUL in any workflow page's input is a 400 page naming the field, nothing changed. */
  @Test
  void nulInAnInput_400NamingTheField_nothingChanges() throws Exception {
    String id = TestServers.unique("wfnul");
    start("WaitsEvent", id, "null");
    awaitStatus(id, "RUNNING");
    for (String path :
        List.of(
            "/ui/workflows?name=Greet%00",
            "/ui/workflows?q=wf%00",
            "/ui/workflows?since=2030%00",
            "/ui/workflows/" + id + "?hafter=1%00",
            "/ui/workflows/" + id + "/confirm?op=terminate%00")) {
      HttpResponse<String> r = ui.get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(400);
      assertThat(r.body()).as(path).contains("must not contain the NUL character");
    }
    String html = page("/ui/workflows/" + id);
    HttpResponse<String> raised =
        ui.post(
            "/ui/workflows/" + id + "/events",
            form("_csrf", UiClient.csrfOf(html), "name", "go\0", "payload", "\"x\""));
    assertThat(raised.statusCode()).isEqualTo(400);
    assertThat(raised.body()).contains("name: must not contain the NUL character");
    HttpResponse<String> terminated =
        ui.post(
            "/ui/workflows/" + id + "/terminate",
            form("_csrf", UiClient.csrfOf(html), "reason", "stop\0"));
    assertThat(terminated.statusCode()).isEqualTo(400);
    assertThat(status(id)).isEqualTo("RUNNING");
    assertThat(api.get("/v1/workflows/" + id).get("pending").get("events").asInt()).isZero();
    api.post("/v1/workflows/" + id + "/terminate", "{}");
  }
}
