package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Role;
import io.redrive.server.ui.Dashboard;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's "finding and watching" over HTTP (docs/dashboard.md): the live refresh's
 * fragments (same headers, session and scope as the pages), the charts' time range and the message
 * list's previous page.
 */
class DashboardWatchHttpTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";
  private static final String SCOPED = "scoped-secret-0123456789abcdef";
  private static final int MESSAGES = 120;
  private static final Pattern ROW_ID = Pattern.compile("<tr data-id=\"([^\"]+)\"");

  @TempDir static Path dir;
  private static RedriveServer server;
  private static Redrive redrive;
  private static String messageId;

  @BeforeAll
  static void start() {
    server =
        TestServers.sqliteWithKeys(
            dir,
            new ApiKey("ada", ADMIN, Role.ADMIN, List.of()),
            new ApiKey("sam", SCOPED, Role.ADMIN, List.of("in.*")));
    redrive = server.redrive();
    redrive.createQueue("in.paged", QueuePolicy.defaults());
    redrive.createQueue("out.secret");
    for (int i = 0; i < MESSAGES; i++) {
      redrive.enqueue(NewMessage.builder("in.paged", "job").payload("{\"n\":" + i + "}").build());
    }
    redrive.enqueue(NewMessage.builder("out.secret", "hidden-type").payload("{}").build());
    messageId =
        redrive.listMessages(MessageQuery.all("in.paged").withLimit(1)).messages().get(0).id();
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @Test
  void liveFragment_isThePageWithoutItsChrome_withEveryPagesHeaders() throws Exception {
    UiClient ui = UiClient.signedIn(server, ADMIN);
    for (String path : List.of("/ui", "/ui/queues/in.paged", "/ui/messages/" + messageId)) {
      HttpResponse<String> page = ui.get(path);
      assertThat(page.statusCode()).as(path).isEqualTo(200);
      assertThat(page.body())
          .as(path)
          .contains("id=\"live-bar\"", "hx-select-oob=", "<header class=\"top\">");
      HttpResponse<String> live = ui.getLive(path);
      assertThat(live.statusCode()).as(path).isEqualTo(200);
      assertProtected(path, live);
      assertThat(live.body())
          .as(path + ": only the content")
          .doesNotContain("<header class=\"top\">", "<!doctype", "<footer>");
      assertThat(live.body()).as(path).contains("id=\"live-bar\"");
    }
    assertThat(ui.getLive("/ui").body()).contains("id=\"live-overview\"", "in.paged");
    assertThat(ui.getLive("/ui/queues/in.paged").body())
        .contains("id=\"q-cards\"", "id=\"throughput\"", "id=\"q-details\"");
    assertThat(ui.getLive("/ui/messages/" + messageId).body())
        .contains("id=\"message-fields\"", "id=\"timeline\"");
  }

  @Test
  void liveFragment_withoutSession_sendsTheBrowserToSignIn_notTheSignInFormIntoThePage()
      throws Exception {
    HttpResponse<String> r = new UiClient(server.baseUrl()).getLive("/ui/queues/in.paged");
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.headers().firstValue("HX-Redirect"))
        .hasValue("/ui/login?next=%2Fui%2Fqueues%2Fin.paged");
    assertProtected("unsigned live", r);
    assertThat(r.body()).doesNotContain("q-cards", "name=\"key\"");
  }

  @Test
  void liveFragment_ofAQueueOutsideTheScope_answersAsMissing() throws Exception {
    UiClient scoped = UiClient.signedIn(server, SCOPED);
    HttpResponse<String> r = scoped.getLive("/ui/queues/out.secret");
    assertThat(r.statusCode()).isEqualTo(404);
    assertProtected("out of scope", r);
    assertThat(r.body()).doesNotContain("hidden-type", "q-cards");
    assertThat(scoped.getLive("/ui").body()).contains("in.paged").doesNotContain("out.secret");
  }

  @Test
  void chartRange_upTo24Hours_andAnUnknownRange_isANamed400() throws Exception {
    UiClient ui = UiClient.signedIn(server, ADMIN);
    assertThat(ui.get("/ui").body())
        .contains("Throughput, last hour", "data-range=\"1h\"", "href=\"?range=24h\"");
    for (String path : List.of("/ui", "/ui/queues/in.paged")) {
      HttpResponse<String> day = ui.get(path + "?range=24h");
      assertThat(day.statusCode()).as(path).isEqualTo(200);
      assertThat(day.body())
          .as(path)
          .contains("Throughput, last 24 hours", "data-range=\"24h\"", "id=\"range-24h\"");
      assertThat(points(day.body())).as(path + ": a point a minute").isEqualTo(24 * 60);
      assertThat(points(ui.get(path + "?range=15m").body())).as(path).isEqualTo(15);
      assertThat(points(ui.get(path + "?range=6h").body())).as(path).isEqualTo(6 * 60);
      for (String bad : List.of("2d", "60", "24H%20x", "1h%00")) {
        HttpResponse<String> r = ui.get(path + "?range=" + bad);
        assertThat(r.statusCode()).as(path + " range=" + bad).isEqualTo(400);
        assertThat(r.body()).as(path + " range=" + bad).contains("range:");
        assertProtected(path + " range=" + bad, r);
      }
    }
    assertThat(ui.get("/ui?range=2d").body()).contains("range: one of 15m, 1h, 6h, 24h");
  }

  @Test
  void messageList_previous_returnsToTheEarlierPage() throws Exception {
    UiClient ui = UiClient.signedIn(server, ADMIN);
    String first = ui.get("/ui/queues/in.paged/messages").body();
    assertThat(first).doesNotContain("id=\"previous-page\"");
    String second = ui.get(href(first, "next-page")).body();
    String third = ui.get(href(second, "next-page")).body();
    assertThat(ids(first)).hasSize(50);
    assertThat(ids(second)).hasSize(50).doesNotContainAnyElementsOf(ids(first));
    assertThat(ids(third)).hasSize(MESSAGES - 100);
    assertThat(third).doesNotContain("id=\"next-page\"");

    String backToSecond = ui.get(href(third, "previous-page")).body();
    assertThat(ids(backToSecond)).isEqualTo(ids(second));
    String backToFirst = ui.get(href(backToSecond, "previous-page")).body();
    assertThat(ids(backToFirst)).isEqualTo(ids(first));
    assertThat(backToFirst).doesNotContain("id=\"previous-page\"");
    // Next from a page reached by Previous goes forward again to the same page.
    assertThat(ids(ui.get(href(backToSecond, "next-page")).body())).isEqualTo(ids(third));
  }

  @Test
  void messageList_previousKeepsTheFilters() throws Exception {
    UiClient ui = UiClient.signedIn(server, ADMIN);
    String first = ui.get("/ui/queues/in.paged/messages?state=ready").body();
    String second = href(first, "next-page");
    assertThat(second).contains("state=ready");
    assertThat(href(ui.get(second).body(), "previous-page")).contains("state=ready");
  }

  @Test
  void messageList_aCursorTheDashboardDidNotMake_isANamed400() throws Exception {
    UiClient ui = UiClient.signedIn(server, ADMIN);
    for (String query : List.of("after=abc", "after=1&back=1,x", "back=first,-5")) {
      HttpResponse<String> r = ui.get("/ui/queues/in.paged/messages?" + query);
      assertThat(r.statusCode()).as(query).isEqualTo(400);
      assertThat(r.body()).as(query).contains("not a cursor this dashboard gave");
    }
  }

  private static void assertProtected(String what, HttpResponse<String> r) {
    assertThat(r.headers().firstValue("Content-Security-Policy")).as(what).hasValue(Dashboard.CSP);
    assertThat(r.headers().firstValue("X-Frame-Options")).as(what).hasValue("DENY");
    assertThat(r.headers().firstValue("X-Content-Type-Options")).as(what).hasValue("nosniff");
    assertThat(r.headers().firstValue("Referrer-Policy")).as(what).hasValue("same-origin");
    assertThat(r.headers().firstValue("Cache-Control")).as(what).hasValue("no-store");
  }

  /** The number of minutes in the throughput chart's data (its {@code x} array). */
  private static int points(String html) {
    Matcher m = Pattern.compile("id=\"chart-throughput\" data-series=\"([^\"]*)\"").matcher(html);
    assertThat(m.find()).as("a throughput chart").isTrue();
    String json = m.group(1).replace("&#34;", "\"").replace("&quot;", "\"");
    String x = json.substring(json.indexOf("\"x\":[") + 5, json.indexOf(']'));
    return x.isEmpty() ? 0 : x.split(",").length;
  }

  private static List<String> ids(String html) {
    List<String> ids = new ArrayList<>();
    Matcher m = ROW_ID.matcher(html);
    while (m.find()) {
      ids.add(m.group(1));
    }
    return ids;
  }

  private static String href(String html, String id) {
    Matcher m = Pattern.compile("id=\"" + id + "\" href=\"([^\"]+)\"").matcher(html);
    assertThat(m.find()).as("a link #%s", id).isTrue();
    return m.group(1).replace("&amp;", "&");
  }
}
