package io.redrive.server;

import static io.redrive.server.UiClient.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.server.HttpApiClient.Response;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The workflow failures page over real HTTP on SQLite, against the keyless workflow server (the
 * visitor is the anonymous admin): failed instances grouped by the cause they failed of, the
 * instance list filtered to one group, and a group's bulk retry through its dry-run confirmation.
 * Each test's failures name a class of their own, so their groups hold only that test's instances.
 */
class WorkflowFailureGroupsTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Pattern GROUP =
      Pattern.compile(
          "<article class=\"group\" data-fingerprint=\"([0-9a-f]{16})\">\\s*<div class=\"title\">"
              + "\\s*<span class=\"count\">([0-9,]+)</span>(.*?)</article>",
          Pattern.DOTALL);

  private HttpApiClient api;
  private UiClient ui;

  @BeforeEach
  void connect() {
    RedriveServer server = WorkflowServers.of(StoreKind.SQLITE);
    api = new HttpApiClient(server.baseUrl());
    ui = new UiClient(server.baseUrl());
  }

  /** Starts {@code Crumbles} failing with class {@code missing}; answers its id once FAILED. */
  private String failing(String missing) {
    String id = TestServers.unique("wff");
    WorkflowServers.BROKEN.add(id);
    Response r =
        api.post(
            "/v1/workflows",
            "{\"name\":\"Crumbles\",\"id\":\"" + id + "\",\"input\":\"" + missing + "\"}");
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return id;
  }

  private void awaitStatus(String id, String status) {
    await()
        .atMost(WAIT)
        .until(() -> api.get("/v1/workflows/" + id).get("status").asText().equals(status));
  }

  private String page(String path) throws Exception {
    HttpResponse<String> r = ui.get(path);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  /** The key and count of the group whose card mentions {@code text}. */
  private static List<String[]> groupsMentioning(String html, String text) {
    List<String[]> out = new ArrayList<>();
    Matcher m = GROUP.matcher(html);
    while (m.find()) {
      if (m.group(3).contains(text)) {
        out.add(new String[] {m.group(1), m.group(2)});
      }
    }
    return out;
  }

  @Test
  void failuresOfOneCause_formOneGroup_anotherCauseAnother_andTheListFiltersByKey()
      throws Exception {
    String a1 = failing("Alpha");
    String a2 = failing("Alpha");
    String b1 = failing("Bravo");
    for (String id : List.of(a1, a2, b1)) {
      awaitStatus(id, "FAILED");
    }
    String html = page("/ui/workflows/failures");
    List<String[]> alpha = groupsMentioning(html, "com/example/Alpha");
    List<String[]> bravo = groupsMentioning(html, "com/example/Bravo");
    assertThat(alpha).hasSize(1);
    assertThat(alpha.get(0)[1]).isEqualTo("2");
    assertThat(bravo).hasSize(1);
    assertThat(bravo.get(0)[1]).isEqualTo("1");
    assertThat(alpha.get(0)[0]).isNotEqualTo(bravo.get(0)[0]);
    assertThat(html).contains("Crumbles 1.0.0").contains("href=\"/ui/workflows/failures/");
    assertThat(page("/ui/workflows")).contains("href=\"/ui/workflows/failures\"");

    String listed = page("/ui/workflows?fingerprint=" + alpha.get(0)[0]);
    assertThat(listed)
        .contains("data-id=\"" + a1 + "\"")
        .contains("data-id=\"" + a2 + "\"")
        .doesNotContain("data-id=\"" + b1 + "\"")
        .contains("id=\"fingerprint-note\"");
    for (String bad : List.of("nothex", "ABCDEF0123456789", "0123456789abcdef%00", "%00")) {
      HttpResponse<String> r = ui.get("/ui/workflows?fingerprint=" + bad);
      assertThat(r.statusCode()).as(bad).isEqualTo(400);
      assertThat(r.body()).as(bad).contains("id=\"error-message\">fingerprint: ");
    }
    HttpResponse<String> badConfirm = ui.get("/ui/workflows/failures/ABC/confirm");
    assertThat(badConfirm.statusCode()).isEqualTo(400);
    assertThat(badConfirm.body()).contains("id=\"error-message\">fingerprint: invalid");
    // A NUL in the path is refused by the HTTP layer before any page runs.
    assertThat(ui.get("/ui/workflows/failures/0123%00/confirm").statusCode()).isEqualTo(400);
    assertThat(ui.get("/ui/workflows?fingerprint=nothex").body())
        .contains("fingerprint: invalid fingerprint");
    for (String id : List.of(a1, a2, b1)) {
      WorkflowServers.BROKEN.remove(id);
      api.post("/v1/workflows/" + id + "/retry", "{}");
    }
  }

  @Test
  void retryAll_countsByADryRun_retriesEach_andReportsWhatItDid() throws Exception {
    String c1 = failing("Charlie");
    String c2 = failing("Charlie");
    awaitStatus(c1, "FAILED");
    awaitStatus(c2, "FAILED");
    String key = groupsMentioning(page("/ui/workflows/failures"), "com/example/Charlie").get(0)[0];

    String confirm = page("/ui/workflows/failures/" + key + "/confirm");
    assertThat(confirm).contains("id=\"dry-run-count\">2<").contains("id=\"confirm-form\"");
    awaitStatus(c1, "FAILED"); // the dry run changed nothing
    String csrf = UiClient.csrfOf(confirm);
    HttpResponse<String> unconfirmed =
        ui.post("/ui/workflows/failures/" + key + "/retry", form("_csrf", csrf));
    assertThat(unconfirmed.statusCode()).isEqualTo(400);
    assertThat(unconfirmed.body()).contains("expected: the count the confirmation showed");
    HttpResponse<String> noToken =
        ui.post("/ui/workflows/failures/" + key + "/retry", form("expected", "2"));
    assertThat(noToken.statusCode()).isEqualTo(403);
    awaitStatus(c2, "FAILED");

    WorkflowServers.BROKEN.remove(c1); // the deploy is fixed
    WorkflowServers.BROKEN.remove(c2);
    HttpResponse<String> posted =
        ui.post(
            "/ui/workflows/failures/" + key + "/retry",
            form("_csrf", csrf, "expected", "2", "note", "fixed deploy"));
    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(303);
    String location = posted.headers().firstValue("Location").orElseThrow();
    assertThat(location).contains("retried=2").contains("skipped=0");
    awaitStatus(c1, "COMPLETED");
    awaitStatus(c2, "COMPLETED");
    assertThat(page(location.substring(location.indexOf("/ui/"))))
        .contains("id=\"retry-result\"")
        .contains("Retried 2 instances of group " + key);
    assertThat(
            api.get("/v1/workflows/" + c1 + "/timeline").body()
                + api.get("/v1/workflows/" + c1 + "/history").body())
        .contains("retry of failure group " + key + ": fixed deploy");

    // Confirmed for 2, none failed any more: both are reported skipped, nothing retried.
    HttpResponse<String> again =
        ui.post("/ui/workflows/failures/" + key + "/retry", form("_csrf", csrf, "expected", "2"));
    assertThat(again.headers().firstValue("Location").orElseThrow())
        .contains("retried=0")
        .contains("skipped=2");
    assertThat(page("/ui/workflows/failures/" + key + "/confirm"))
        .contains("No failed instance you may see has this fingerprint")
        .doesNotContain("id=\"confirm-form\"");
  }
}
