package io.redrive.server;

import static io.redrive.server.UiClient.form;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Role;
import io.redrive.server.ui.Dashboard;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard over real HTTP without a browser: sessions, CSRF, roles and scopes, escaping and
 * the protective headers, on a server with keys. (The browser tests walk the same pages in
 * Chromium.)
 */
class DashboardHttpTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";
  private static final String VIEWER = "viewer-secret-0123456789abcdef";
  private static final String SCOPED = "scoped-secret-0123456789abcdef";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static Redrive redrive;
  private static String deadId;

  @BeforeAll
  static void start() {
    server =
        TestServers.sqliteWithKeys(
            dir,
            new ApiKey("ada", ADMIN, Role.ADMIN, List.of()),
            new ApiKey("vic", VIEWER, Role.VIEWER, List.of()),
            new ApiKey("sam", SCOPED, Role.ADMIN, List.of("in.*")));
    redrive = server.redrive();
    redrive.createQueue("in.orders", QueuePolicy.defaults().withMaxAttempts(1));
    redrive.createQueue("out.secret");
    redrive.enqueue(
        NewMessage.builder("in.orders", "charge")
            .payload("{\"note\":\"<script>window.pwned=1</script>\"}")
            .build());
    LeasedMessage m = redrive.lease(LeaseRequest.of("in.orders", "w1", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(
                m.token(), FailureReason.HANDLER_EXCEPTION, "\"><img src=x onerror=alert(1)>")
            .withStackTrace("java.lang.IllegalStateException: <b>bold</b>\n\tat a.B.c(B.java:1)"));
    deadId = m.id();
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  private static UiClient signedIn(String key) throws Exception {
    return UiClient.signedIn(server, key);
  }

  @Test
  void anyPage_withoutSession_redirectsToLogin_keepingWhereItWasGoing() throws Exception {
    HttpResponse<String> r = new UiClient(server.baseUrl()).get("/ui/queues/in.orders");
    assertThat(r.statusCode()).isEqualTo(303);
    assertThat(r.headers().firstValue("Location"))
        .hasValue("/ui/login?next=%2Fui%2Fqueues%2Fin.orders");
  }

  @Test
  void login_unknownKey_isRefused_andOpensNoSession() throws Exception {
    UiClient ui = new UiClient(server.baseUrl());
    HttpResponse<String> r = ui.login("not-a-key-0123456789abcdef");
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body()).contains("That key is not known to this server.");
    assertThat(ui.sessionCookie()).isNull();
    assertThat(ui.get("/ui").statusCode()).isEqualTo(303);
  }

  @Test
  void login_setsAnHttpOnlyStrictCookie_withoutTheKeyInIt() throws Exception {
    UiClient ui = new UiClient(server.baseUrl());
    HttpResponse<String> r = ui.login(ADMIN);
    assertThat(r.statusCode()).isEqualTo(303);
    assertThat(r.headers().firstValue("Location")).hasValue("/ui");
    String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(setCookie).contains("HttpOnly").contains("SameSite=Strict").contains("Path=/ui");
    assertThat(setCookie).doesNotContain(ADMIN);
    HttpResponse<String> page = ui.get("/ui");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("id=\"user\">ada<").contains("in.orders");
  }

  @Test
  void login_next_neverLeavesTheDashboard() throws Exception {
    for (String next :
        List.of("//evil.example/x", "https://evil.example", "/v1/queues", "/ui\\x")) {
      UiClient ui = new UiClient(server.baseUrl());
      HttpResponse<String> r = ui.post("/ui/login", form("key", ADMIN, "next", next));
      assertThat(r.headers().firstValue("Location")).as(next).hasValue("/ui");
    }
  }

  /** docs/dashboard.md: every page, error pages included, carries these headers. */
  @Test
  void everyAnswer_carriesTheStrictPolicy() throws Exception {
    UiClient ui = signedIn(ADMIN);
    for (String path :
        List.of(
            "/ui",
            "/ui/login",
            "/ui/queues/in.orders",
            "/ui/messages/" + deadId,
            "/ui/messages/no-such-message",
            "/ui/nothing/here")) {
      HttpResponse<String> r = ui.get(path);
      assertThat(r.headers().firstValue("Content-Security-Policy"))
          .as(path)
          .hasValue(Dashboard.CSP);
      assertThat(r.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
      assertThat(r.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
      assertThat(r.headers().firstValue("Referrer-Policy")).as(path).hasValue("same-origin");
      assertThat(r.headers().firstValue("Cache-Control")).as(path).hasValue("no-store");
    }
    assertThat(Dashboard.CSP).contains("script-src 'self'").doesNotContain("unsafe");
  }

  @Test
  void messagePage_showsStoredStringsAsText() throws Exception {
    HttpResponse<String> r = signedIn(ADMIN).get("/ui/messages/" + deadId);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body())
        .doesNotContain("<script>window.pwned")
        .doesNotContain("<img src=x")
        .doesNotContain("<b>bold</b>")
        .contains("&lt;script&gt;window.pwned=1&lt;/script&gt;")
        .contains("&lt;b&gt;bold&lt;/b&gt;");
  }

  @Test
  void viewer_seesNoActionButtons_andAForgedPauseIsRefused() throws Exception {
    UiClient viewer = signedIn(VIEWER);
    HttpResponse<String> page = viewer.get("/ui/queues/in.orders");
    assertThat(page.body()).doesNotContain("id=\"pause-toggle\"");
    assertThat(viewer.get("/ui/messages/" + deadId).body()).doesNotContain("id=\"retry\"");
    HttpResponse<String> forged =
        viewer.post("/ui/queues/in.orders/pause", form("_csrf", UiClient.csrfOf(page.body())));
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(redrive.getQueue("in.orders").paused()).isFalse();
  }

  @Test
  void admin_pausesWithTheFormToken_butNotWithoutIt() throws Exception {
    UiClient admin = signedIn(ADMIN);
    String page = admin.get("/ui/queues/in.orders").body();
    assertThat(page).contains("id=\"pause-toggle\"");
    HttpResponse<String> noToken = admin.post("/ui/queues/in.orders/pause", form());
    assertThat(noToken.statusCode()).isEqualTo(403);
    assertThat(noToken.body()).contains("CSRF_CHECK_FAILED");
    HttpResponse<String> otherToken =
        admin.post(
            "/ui/queues/in.orders/pause",
            form("_csrf", UiClient.csrfOf(signedIn(ADMIN).get("/ui").body())));
    assertThat(otherToken.statusCode()).isEqualTo(403);
    assertThat(redrive.getQueue("in.orders").paused()).isFalse();
    try {
      HttpResponse<String> ok =
          admin.post("/ui/queues/in.orders/pause", form("_csrf", UiClient.csrfOf(page)));
      assertThat(ok.statusCode()).isEqualTo(303);
      assertThat(redrive.getQueue("in.orders").paused()).isTrue();
    } finally {
      redrive.resumeQueue("in.orders");
    }
  }

  @Test
  void formFromAForeignOrigin_isRefusedBeforeTheToken() throws Exception {
    UiClient admin = signedIn(ADMIN);
    String page = admin.get("/ui/queues/in.orders").body();
    HttpResponse<String> r =
        admin.post(
            "/ui/queues/in.orders/pause",
            form("_csrf", UiClient.csrfOf(page)),
            "http://evil.example");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(redrive.getQueue("in.orders").paused()).isFalse();
  }

  @Test
  void scopedKey_seesOnlyItsQueues_andOthersAnswerAsMissing() throws Exception {
    UiClient sam = signedIn(SCOPED);
    String overview = sam.get("/ui").body();
    assertThat(overview).contains("in.orders").doesNotContain("out.secret");
    HttpResponse<String> hidden = sam.get("/ui/queues/out.secret");
    assertThat(hidden.statusCode()).isEqualTo(404);
    // the dashboard's own 404 page, naming the queue as missing, not the API's JSON
    assertThat(hidden.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
    assertThat(hidden.body()).contains("QUEUE_NOT_FOUND").doesNotContain("no such endpoint");
  }

  @Test
  void overviewAndQueuePage_showTheLastHoursThroughput() throws Exception {
    UiClient ui = signedIn(ADMIN);
    String overview = ui.get("/ui").body();
    String queue = ui.get("/ui/queues/in.orders").body();

    for (String page : List.of(overview, queue)) {
      assertThat(page)
          .contains(
              "<section class=\"throughput\" id=\"throughput\"", "<h2>Throughput, last hour</h2>")
          .contains("<span id=\"hour-enqueued\">1</span> enqueued")
          .contains("<span id=\"hour-failed\">1</span> failed attempts")
          .contains("<span id=\"hour-dead\">1</span> died")
          .contains("id=\"chart-throughput\"", "Throughput per minute", "id=\"chart-depth\"")
          .doesNotContain("chart-activity");
    }
    assertThat(overview).doesNotContain("id=\"chart-backlog\"");
    assertThat(queue).contains("id=\"chart-backlog\"");
  }

  @Test
  void logout_endsTheSession_evenForACopiedCookie() throws Exception {
    UiClient ui = signedIn(ADMIN);
    String cookie = ui.sessionCookie();
    String page = ui.get("/ui").body();
    HttpResponse<String> out = ui.post("/ui/logout", form("_csrf", UiClient.csrfOf(page)));
    assertThat(out.statusCode()).isEqualTo(303);
    assertThat(out.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");
    assertThat(ui.get("/ui").statusCode()).isEqualTo(303);
    UiClient thief = new UiClient(server.baseUrl());
    thief.useCookie(cookie);
    assertThat(thief.get("/ui").statusCode()).isEqualTo(303);
  }

  @Test
  void forgedCookie_isNoSession() throws Exception {
    UiClient ui = new UiClient(server.baseUrl());
    ui.useCookie("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    assertThat(ui.get("/ui").statusCode()).isEqualTo(303);
  }

  @Test
  void unknownDashboardPath_isAnHtmlNotFound() throws Exception {
    HttpResponse<String> r = signedIn(ADMIN).get("/ui/nothing/here");
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
    assertThat(r.body())
        .contains("/ui/assets/redrive.css")
        .contains("No dashboard page at this address");
  }

  @Test
  void missingQueue_isTheDashboardsHtmlNotFound_notTheApisJson() throws Exception {
    HttpResponse<String> r = signedIn(ADMIN).get("/ui/queues/no-such-queue");
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
    assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
    assertThat(r.body()).contains("/ui/assets/redrive.css").contains("no-such-queue");
  }
}
