package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.RedriveServer;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.support.ui.Select;

/**
 * The workflow pages in Chromium on both stores, against a server running a workflow runtime (so
 * not {@link BrowserTestBase}'s server): an instance that failed by a bad deploy is found in the
 * list filtered to failed ones, retried from its page through the confirmation once the deploy is
 * "fixed", and completes; two instances failed by one cause are found as one group on the failures
 * page and retried together; the instance page's screenshot is kept, and the console stays empty
 * (no script error, no Content-Security-Policy violation).
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WorkflowBrowserTest {
  private static final String ADMIN_KEY = "admin-secret-0123456789abcdef";

  /** Inputs for which {@code Deploy} throws a LinkageError, as a half-deployed node would. */
  private static final Set<String> BROKEN = ConcurrentHashMap.newKeySet();

  private static Browser browser;
  private static BrowserServer running;
  private static RedriveServer server;

  @Parameter BrowserStore kind;
  private DashboardUi ui;

  @BeforeAll
  static void startBrowser() {
    browser = Browsers.start();
  }

  @AfterAll
  static void quitBrowser() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
  }

  private static WorkflowRegistry registry() {
    return WorkflowRegistry.builder()
        .orchestration(
            "Deploy",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              if (BROKEN.contains(in)) {
                throw new NoClassDefFoundError("com/example/Gone (mid-deploy)");
              }
              return "deployed " + in;
            })
        .orchestration(
            "Throws",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new IllegalStateException("refused " + in);
            })
        .orchestration(
            "WaitsForGo",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.waitForEvent("go", String.class).await())
        .build();
  }

  @BeforeParameterizedClassInvocation
  static void startServer(BrowserStore kind) {
    running = BrowserServer.startWithWorkflows(kind, ADMIN_KEY, registry(), "browser-node");
    server = running.server();
  }

  @AfterParameterizedClassInvocation
  static void stopServer() {
    try {
      BrowserServer.stop(running);
    } finally {
      running = null;
      server = null;
    }
  }

  @BeforeEach
  void signedOut() {
    ui = new DashboardUi(browser, server.baseUrl(), kind.label());
    ui.forgetSession();
    browser.clearConsole();
  }

  @Test
  void failedInstance_foundInTheList_retriedFromItsPage_completes() {
    WorkflowClient client = WorkflowClient.on(server.redrive());
    String id = "release-" + kind.label();
    BROKEN.add(id);
    client.start(StartRequest.of("Deploy", id).withInstanceId(id));
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.get(id).orElseThrow().status() == InstanceStatus.FAILED);

    ui.signIn(ADMIN_KEY).open("/ui/workflows");
    new Select(ui.find("#f-status")).selectByValue("failed");
    ui.clickAndWait("#filter");
    assertThat(ui.path()).contains("status=failed");
    assertThat(ui.all("#instances tr[data-id]"))
        .extracting(tr -> tr.getDomAttribute("data-id"))
        .containsExactly(id);
    browser.screenshot("workflows-failed-" + kind.label());
    ui.clickAndWait("#instances tr[data-id] td.id a");
    assertThat(ui.text("#w-status")).isEqualTo("failed");
    assertThat(ui.text("#failure-display")).contains("poison").contains("mid-deploy");

    BROKEN.remove(id); // the deploy is fixed
    ui.clickAndWait("#retry");
    assertThat(ui.heading()).isEqualTo("Retry " + id + "?");
    ui.find("#confirm-text").sendKeys("fixed deploy");
    ui.clickAndWait("#confirm");
    assertThat(ui.path()).isEqualTo("/ui/workflows/" + id);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> ui.open("/ui/workflows/" + id).text("#w-status").equals("completed"));
    assertThat(ui.text("#output")).isEqualTo("\"deployed " + id + "\"");
    assertThat(ui.all("#timeline li.entry")).isNotEmpty();
    assertThat(ui.has("#retry")).isFalse();
    assertThat(ui.all("#timeline li.entry.action[data-outcome=RETRIED]")).hasSize(1);
    browser.screenshot("workflow-instance-" + kind.label());
    assertThat(browser.console()).as("console").isEmpty();
  }

  /**
   * Two instances failed by the same bad deploy form one group on the failures page; "Retry all"
   * goes through the dry-run confirmation and, the deploy fixed, both complete. The page fits a
   * phone's width.
   */
  @Test
  void failureGroup_foundByFingerprint_retriedFromTheDashboard_completes() {
    WorkflowClient client = WorkflowClient.on(server.redrive());
    List<String> ids = List.of("rollout-a-" + kind.label(), "rollout-b-" + kind.label());
    for (String id : ids) {
      BROKEN.add(id);
      client.start(StartRequest.of("Deploy", id).withInstanceId(id));
    }
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                ids.stream()
                    .allMatch(
                        id -> client.get(id).orElseThrow().status() == InstanceStatus.FAILED));

    ui.signIn(ADMIN_KEY).open("/ui/workflows");
    ui.clickAndWait("#failures-link");
    assertThat(ui.path()).isEqualTo("/ui/workflows/failures");
    // Other tests' failures (Throws) make groups of their own: this one is the bad deploy's.
    List<org.openqa.selenium.WebElement> deploys = deployGroups();
    assertThat(deploys).hasSize(1);
    String key = deploys.get(0).getDomAttribute("data-fingerprint");
    String card = "#groups article.group[data-fingerprint='" + key + "']";
    assertThat(ui.text(card + " .count")).isEqualTo("2");
    assertThat(ui.text(card + " .title")).contains("Deploy 1.0.0");
    ui.phone(PhoneWidthBrowserTest.PHONE_WIDTH, 844);
    try {
      ui.open("/ui/workflows/failures");
      assertThat(
              ui.script(
                  "return document.documentElement.scrollWidth <= window.innerWidth"
                      + " ? null : document.documentElement.scrollWidth"))
          .as("the failures page wider than the phone")
          .isNull();
      browser.screenshot("phone-workflow-failures-" + kind.label());
    } finally {
      ui.desktop();
    }
    ui.open("/ui/workflows/failures");
    browser.screenshot("workflow-failures-" + kind.label());

    ui.clickAndWait(card + " .retry-group");
    assertThat(ui.heading()).isEqualTo("Retry 2 failed instances?");
    assertThat(ui.text("#dry-run-count")).isEqualTo("2");
    ids.forEach(BROKEN::remove); // the deploy is fixed
    ui.find("#confirm-text").sendKeys("fixed deploy");
    ui.clickAndWait("#confirm");
    assertThat(ui.path()).startsWith("/ui/workflows/failures?");
    assertThat(ui.text("#retry-result")).contains("Retried 2 instances").contains("0 skipped");
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                ids.stream()
                    .allMatch(
                        id -> client.get(id).orElseThrow().status() == InstanceStatus.COMPLETED));
    ui.open("/ui/workflows/failures");
    assertThat(deployGroups()).isEmpty();
    assertThat(ui.open("/ui/workflows/" + ids.get(0)).text("#w-status")).isEqualTo("completed");
    assertThat(browser.console()).as("console").isEmpty();
  }

  /** The failure groups of the page open whose latest failure is the bad deploy's. */
  private List<org.openqa.selenium.WebElement> deployGroups() {
    return ui.all("#groups article.group").stream()
        .filter(g -> g.getText().contains("mid-deploy"))
        .toList();
  }

  /**
   * The live refresh shows an instance ending while the visitor types an event's name: the status
   * and timeline change in place, and the half-typed name, still focused, is not touched.
   */
  @Test
  void instancePage_refreshesItsStatus_butNotTheFormBeingTyped() {
    WorkflowClient client = WorkflowClient.on(server.redrive());
    String id = "waiting-" + kind.label();
    client.start(StartRequest.of("WaitsForGo", id).withInstanceId(id));
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.get(id).isPresent());

    ui.signIn(ADMIN_KEY).liveRefresh(true).open("/ui/workflows/" + id);
    ui.awaitPresent("#live-bar[data-live='on']");
    assertThat(ui.text("#w-status")).isIn("pending", "running");
    ui.find("#event-name").sendKeys("half-typ");
    ui.script("window.__sameDocument = true");

    client.raiseEvent(id, "go", "now", null);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                "completed"
                    .equals(
                        ui.script(
                            "return document.querySelector('#w-status').textContent.trim()")));
    assertThat(ui.script("return window.__sameDocument === true"))
        .as("refreshed in place")
        .isEqualTo(true);
    assertThat(ui.find("#event-name").getDomProperty("value")).isEqualTo("half-typ");
    assertThat(ui.script("return document.activeElement.id")).isEqualTo("event-name");
    browser.screenshot("workflow-live-" + kind.label());
    assertThat(browser.console()).as("console").isEmpty();
  }

  /**
   * Hostile text in a workflow's name, input, output, raised event and failure reads back as the
   * same text on the list and instance pages: no element is made from it, no script runs ({@code
   * window.__xss} stays undefined), the console stays empty.
   */
  @Test
  void hostileText_inWorkflowNamesInputsOutputsEventsAndFailures_readsBackAsText() {
    WorkflowClient client = WorkflowClient.on(server.redrive());
    String evil = "<img src=x onerror=\"window.__xss=1\"><script>window.__xss=2</script>";
    String named = "evil-name-" + kind.label();
    client.start(
        StartRequest.of(evil, "x")
            .withInstanceId(named)
            .withStartAt(java.time.Instant.now().plus(Duration.ofHours(1))));
    String deployed = "evil-out-" + kind.label();
    client.start(StartRequest.of("Deploy", evil).withInstanceId(deployed));
    String thrown = "evil-fail-" + kind.label();
    client.start(StartRequest.of("Throws", evil).withInstanceId(thrown));
    String waiting = "evil-event-" + kind.label();
    client.start(StartRequest.of("WaitsForGo", "x").withInstanceId(waiting));
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                client.get(deployed).orElseThrow().status() == InstanceStatus.COMPLETED
                    && client.get(thrown).orElseThrow().status() == InstanceStatus.FAILED
                    && client.get(waiting).isPresent());
    client.raiseEvent(waiting, evil, evil, null);

    ui.signIn(ADMIN_KEY);
    for (String page :
        List.of(
            "/ui/workflows",
            "/ui/workflows/" + named,
            "/ui/workflows/" + deployed,
            "/ui/workflows/" + thrown,
            "/ui/workflows/" + waiting)) {
      ui.open(page);
      assertThat(ui.script("return typeof window.__xss")).as(page).isEqualTo("undefined");
      assertThat(ui.all("img[src='x']")).as(page + ": no element made of the text").isEmpty();
    }
    ui.open("/ui/workflows/" + named);
    assertThat(ui.text("#w-name")).isEqualTo(evil);
    ui.open("/ui/workflows/" + deployed);
    assertThat(ui.text("#input")).contains(evil.replace("\"", "\\\""));
    assertThat(ui.text("#output")).contains("deployed ");
    ui.open("/ui/workflows/" + thrown);
    assertThat(ui.text("#failure-display")).contains("refused <img src=x");
    ui.open("/ui/workflows/" + waiting);
    assertThat(ui.text("body")).contains("<script>window.__xss=2</script>");
    assertThat(browser.console()).as("console").isEmpty();
  }
}
