package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.RedriveServer;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The workflow pages at a phone's width ({@link PhoneWidthBrowserTest#PHONE_WIDTH} CSS pixels) on
 * each store, against a server running a workflow runtime (as {@link WorkflowBrowserTest}'s, with a
 * long node id): instances with long ids, a long orchestration name with long JSON input and
 * output, a failure with a long message and a stack trace, a parent with a child and one running
 * that waits on an event. The list, the failed instance's page (its stack trace open), the
 * completed, parent, child and running instances' pages and the retry, delete and terminate
 * confirmations are no wider than the screen (a wide table scrolls inside its own box, an id in the
 * list stays on one line); each is kept as a screenshot {@code phone-<page>-<store>}, and so are
 * the failed page's failure, timeline and history scrolled into view.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class WorkflowPhoneWidthBrowserTest {
  private static final String ADMIN_KEY = "admin-secret-0123456789abcdef";
  private static final int PHONE_HEIGHT = 844;
  private static final String LONG_TOKEN = "x".repeat(180);
  private static final String LONG_NAME =
      "ShopCheckoutOrchestrationWithARatherLongNameThatDoesNotStopAnytimeSoon"
          + "ForThePhoneWidthTestOfTheWorkflowPages";
  private static final String ERROR =
      "card declined by the payment gateway for order 4037 after three tries: "
          + "gateway.example.com/v2/charges/ch_3NqFz2LkdIqHf81x0aB9cDeF said insufficient_funds ";

  /** A long JSON input: a nested object with an unbroken token. */
  record Order(String id, List<String> lines, String token) {}

  private static Browser browser;
  private static BrowserServer running;
  private static RedriveServer server;

  @Parameter BrowserStore kind;

  /** Each page found wider than the phone, with its width: all are named at once. */
  private final Map<String, Object> tooWide = new LinkedHashMap<>();

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
            LONG_NAME,
            "1.0.0",
            Order.class,
            Order.class,
            (ctx, in) -> new Order(in.id() + "-done", in.lines(), in.token()))
        .orchestration(
            "Charge",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> {
              throw new IllegalStateException(ERROR + in);
            })
        .orchestration(
            "Parent",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> "parent of " + ctx.callSubOrchestration("Greet", in, String.class).await())
        .orchestration(
            "Greet",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> "hello " + ctx.callActivity("Upper", in, String.class).await())
        .orchestration(
            "WaitsForAPaymentConfirmationEvent",
            "1.0.0",
            String.class,
            String.class,
            (ctx, in) -> ctx.waitForEvent("payment-confirmed-" + in, String.class).await())
        .activity("Upper", String.class, String.class, (ctx, in) -> in.toUpperCase())
        .build();
  }

  @BeforeParameterizedClassInvocation
  static void startServer(BrowserStore kind) {
    running =
        BrowserServer.startWithWorkflows(
            kind, ADMIN_KEY, registry(), "phone-node-" + LONG_TOKEN.substring(0, 40));
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

  @Test
  void workflowPages_fitAPhone() {
    WorkflowClient client = WorkflowClient.on(server.redrive());
    String failed = "charge-order-4037-" + LONG_TOKEN.substring(0, 60);
    String big = "checkout-" + LONG_TOKEN.substring(0, 80);
    String parent = "parent-" + kind.label();
    client.start(StartRequest.of("Charge", LONG_TOKEN).withInstanceId(failed));
    client.start(
        StartRequest.of(
                LONG_NAME,
                new Order(
                    "order-4037",
                    List.of("a long line item " + LONG_TOKEN, "another " + LONG_TOKEN),
                    LONG_TOKEN))
            .withInstanceId(big));
    client.start(StartRequest.of("Parent", "ada " + LONG_TOKEN).withInstanceId(parent));
    String waiting = "waits-" + LONG_TOKEN.substring(0, 70);
    client.start(
        StartRequest.of("WaitsForAPaymentConfirmationEvent", LONG_TOKEN.substring(0, 90))
            .withInstanceId(waiting));
    awaitStatus(client, failed, InstanceStatus.FAILED);
    awaitStatus(client, big, InstanceStatus.COMPLETED);
    awaitStatus(client, parent, InstanceStatus.COMPLETED);

    DashboardUi ui = new DashboardUi(browser, server.baseUrl(), kind.label());
    ui.forgetSession();
    browser.clearConsole();
    ui.signIn(ADMIN_KEY);
    ui.phone(PhoneWidthBrowserTest.PHONE_WIDTH, PHONE_HEIGHT);
    try {
      fits(ui, "workflows", "/ui/workflows");
      assertThat(ui.all("#instances tr[data-id]")).hasSize(5);
      assertThat(ui.find("#instances tr[data-id='" + parent + "'] td.id a").getRect().getHeight())
          .as("an id stays on one line")
          .isLessThan(30);
      fits(ui, "workflows-failed", "/ui/workflows?status=failed");
      fits(ui, "workflow-instance", "/ui/workflows/" + failed);
      assertThat(ui.text("#w-status")).isEqualTo("failed");
      assertThat(ui.all("#timeline li.entry")).isNotEmpty();
      assertThat(ui.all("#history tr[data-event]")).isNotEmpty();
      ui.find("details.stack summary").click();
      fits(ui, "workflow-instance-stack", null);
      shot(ui, "workflow-instance-failure", "#failure");
      shot(ui, "workflow-instance-timeline", "#timeline");
      shot(ui, "workflow-instance-history", "#history");
      fits(ui, "workflow-completed", "/ui/workflows/" + big);
      shot(ui, "workflow-completed-output", "#output");
      shot(ui, "workflow-completed-timeline", "#timeline");
      fits(ui, "workflow-running", "/ui/workflows/" + waiting);
      shot(ui, "workflow-running-raise", "#raise-form");
      fits(ui, "workflow-confirm-terminate", "/ui/workflows/" + waiting + "/confirm?op=terminate");
      fits(ui, "workflow-parent", "/ui/workflows/" + parent);
      assertThat(ui.all("#children li[data-id]")).hasSize(1);
      shot(ui, "workflow-parent-history", "#history");
      ui.clickAndWait("#children li[data-id] a");
      fits(ui, "workflow-child", null);
      fits(ui, "workflow-confirm", "/ui/workflows/" + failed + "/confirm?op=retry");
      fits(ui, "workflow-confirm-delete", "/ui/workflows/" + big + "/confirm?op=delete");
      assertThat(tooWide)
          .as("pages wider than the phone's %d px", PhoneWidthBrowserTest.PHONE_WIDTH)
          .isEmpty();
      assertThat(browser.console()).as("console").isEmpty();
    } finally {
      ui.desktop();
    }
  }

  private static void awaitStatus(WorkflowClient client, String id, InstanceStatus status) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.get(id).orElseThrow().status() == status);
  }

  /**
   * Scrolls {@code css} to the top of the screen and saves the screenshot {@code
   * phone-<page>-<store>}.
   */
  private void shot(DashboardUi ui, String page, String css) {
    ui.script("arguments[0].scrollIntoView()", ui.find(css));
    browser.screenshot("phone-" + page + "-" + kind.label());
  }

  /**
   * Opens {@code path} (or stays on the current page when null), saves its screenshot {@code
   * phone-<page>-<store>} and checks that nothing makes the page wider than the phone.
   */
  private void fits(DashboardUi ui, String page, String path) {
    if (path != null) {
      ui.open(path);
    }
    browser.screenshot("phone-" + page + "-" + kind.label());
    assertThat(ui.script("return window.innerWidth"))
        .as("%s: the viewport is the phone's, not zoomed out", page)
        .isEqualTo((long) PhoneWidthBrowserTest.PHONE_WIDTH);
    Object wide =
        ui.script(
            "return document.documentElement.scrollWidth <= window.innerWidth"
                + " ? null : document.documentElement.scrollWidth");
    if (wide != null) {
      tooWide.put(page, wide);
    }
  }
}
