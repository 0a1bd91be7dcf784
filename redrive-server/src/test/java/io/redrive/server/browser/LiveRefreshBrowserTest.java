package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The live refresh (docs/dashboard.md, "Live refresh") in Chromium on each store: a page shows what
 * the engine did since it was opened without a reload; nothing is asked while the tab is hidden or
 * the visitor paused; what the visitor opened stays open. The pause checks count, in the page, the
 * refresh's timer ticks ({@code htmx:beforeRequest}, which fires on every tick) and the requests
 * actually sent ({@code htmx:beforeSend}, which fires only for a request not cancelled): ticks go
 * on, requests do not. A hidden tab is emulated by overriding {@code document.visibilityState} and
 * dispatching {@code visibilitychange}, which is what a browser does when a tab goes to the
 * background (headless Chromium has no background tabs to switch to).
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LiveRefreshBrowserTest extends BrowserTestBase {
  /** Long enough for several 5 s ticks. */
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static final String COUNT_REQUESTS =
      "window.__ticks = 0; window.__sent = 0;"
          + "document.body.addEventListener('htmx:beforeRequest', function () { window.__ticks++; });"
          + "document.body.addEventListener('htmx:beforeSend', function () { window.__sent++; });";

  private static final String HIDE =
      "Object.defineProperty(document, 'visibilityState', {configurable: true,"
          + " get: function () { return 'hidden'; }});"
          + "Object.defineProperty(document, 'hidden', {configurable: true,"
          + " get: function () { return true; }});"
          + "document.dispatchEvent(new Event('visibilitychange'));";

  private static final String SHOW =
      "delete document.visibilityState; delete document.hidden;"
          + "document.dispatchEvent(new Event('visibilitychange'));";

  @Test
  void queueAndOverview_showNewMessages_withoutAReload() {
    String q = queue("live", QueuePolicy.defaults());
    enqueue(q, 1);
    ui.signIn(ADMIN_KEY).liveRefresh(true);
    ui.open("/ui/queues/" + q);
    ui.awaitPresent("#live-bar[data-live='on']");
    assertThat(ui.find("#live-bar").isDisplayed()).isTrue();
    assertThat(ui.text("#live-state")).isEqualTo("live");
    assertThat(text("#q-ready")).isEqualTo("1");
    markPage();

    enqueue(q, 2);
    await().atMost(WAIT).until(() -> text("#q-ready").equals("3"));
    assertThat(text("#live-updated")).matches("[0-2][0-9]:[0-5][0-9]:[0-5][0-9]");
    assertThat(text("#hour-enqueued")).isEqualTo("3");
    assertThat(
            script("return document.querySelector('#chart-throughput').getAttribute('data-drawn')"))
        .as("the swapped chart is drawn again")
        .isEqualTo("true");
    assertSamePage();

    ui.open("/ui");
    ui.awaitPresent("#live-bar[data-live='on']");
    markPage();
    enqueue(q, 1);
    await().atMost(WAIT).until(() -> text("tr[data-queue='" + q + "'] td.ready").equals("4"));
    assertSamePage();
    assertThat(browser.console()).as("console: no CSP refusal, no error").isEmpty();
  }

  @Test
  void hiddenTab_sendsNoRefresh_untilItIsVisibleAgain() {
    String q = queue("hidden", QueuePolicy.defaults());
    enqueue(q, 1);
    ui.signIn(ADMIN_KEY).liveRefresh(true);
    ui.open("/ui/queues/" + q);
    ui.awaitPresent("#live-bar[data-live='on']");
    ui.script(COUNT_REQUESTS);
    ui.script(HIDE);
    assertThat(ui.find("#live-bar").getDomAttribute("data-live")).isEqualTo("hidden");
    long sent = count("__sent");
    enqueue(q, 1);

    await().atMost(WAIT).until(() -> count("__ticks") >= 2);
    assertThat(count("__sent")).as("requests sent while hidden").isEqualTo(sent);
    assertThat(text("#q-ready")).as("nothing refreshed while hidden").isEqualTo("1");

    ui.script(SHOW);
    await().atMost(WAIT).until(() -> text("#q-ready").equals("2"));
    assertThat(count("__sent")).isGreaterThan(sent);
    assertThat(ui.find("#live-bar").getDomAttribute("data-live")).isEqualTo("on");
    assertThat(browser.console()).as("console").isEmpty();
  }

  @Test
  void pause_stopsTheRefresh_onEveryPage_untilResumed() {
    String q = queue("paused", QueuePolicy.defaults());
    enqueue(q, 1);
    ui.signIn(ADMIN_KEY).liveRefresh(true);
    ui.open("/ui/queues/" + q);
    ui.awaitPresent("#live-bar[data-live='on']");
    ui.find("#live-toggle").click();
    assertThat(ui.find("#live-bar").getDomAttribute("data-live")).isEqualTo("paused");
    assertThat(ui.text("#live-toggle")).isEqualTo("Resume");

    ui.open("/ui/queues/" + q); // remembered: a page opened later starts paused
    ui.awaitPresent("#live-bar[data-live='paused']");
    ui.script(COUNT_REQUESTS);
    enqueue(q, 1);
    await().atMost(WAIT).until(() -> count("__ticks") >= 2);
    assertThat(count("__sent")).as("requests sent while paused").isZero();
    assertThat(text("#q-ready")).isEqualTo("1");

    ui.find("#live-toggle").click();
    assertThat(ui.text("#live-toggle")).isEqualTo("Pause");
    await().atMost(WAIT).until(() -> text("#q-ready").equals("2"));
    assertThat(browser.console()).as("console").isEmpty();
  }

  @Test
  void messagePage_addsNewDeliveries_andKeepsAnOpenStackTraceOpen() {
    String q = queue("watched", QueuePolicy.defaults().withMaxAttempts(5));
    enqueue(q, 1);
    String id = failOnce(q);
    ui.signIn(ADMIN_KEY).liveRefresh(true);
    ui.open("/ui/messages/" + id);
    ui.awaitPresent("#live-bar[data-live='on']");
    assertThat(ui.all("#timeline li.entry")).hasSize(1);
    script("document.querySelector('#timeline details.stack summary').click()");
    markPage();

    if (redrive.getMessage(id).state() == MessageState.SCHEDULED) {
      redrive.retryNow(id, "test"); // past its backoff at once
    }
    failOnce(q);
    await()
        .atMost(WAIT)
        .until(() -> count("document.querySelectorAll('#timeline li.entry').length") >= 2);
    assertThat(script("return document.querySelector('#timeline details.stack').open"))
        .as("the stack trace the visitor opened")
        .isEqualTo(true);
    assertSamePage();
    assertThat(browser.console()).as("console").isEmpty();
  }

  /** Leases the queue's one message and fails it with a stack trace; returns its id. */
  private static String failOnce(String q) {
    LeasedMessage m = redrive.lease(LeaseRequest.of(q, "w-live", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "boom")
            .withStackTrace("java.lang.IllegalStateException: boom\n\tat a.B.c(B.java:1)\n"));
    return m.id();
  }

  private static void enqueue(String q, int n) {
    for (int i = 0; i < n; i++) {
      redrive.enqueue(NewMessage.builder(q, "job").payload("{}").build());
    }
  }

  /** Marks the loaded document, so that {@link #assertSamePage} can tell a reload from a swap. */
  private void markPage() {
    ui.script("window.__sameDocument = true");
  }

  private void assertSamePage() {
    assertThat(ui.script("return window.__sameDocument === true"))
        .as("refreshed in place, not reloaded")
        .isEqualTo(true);
  }

  /** A number the page's script gives ({@code __sent}, or any expression). */
  private long count(String expression) {
    return ((Number)
            ui.script(
                "return ("
                    + (expression.startsWith("__") ? "window." : "")
                    + expression
                    + ") || 0"))
        .longValue();
  }

  /**
   * An element's text, read in one script call: an element found first and read later may have been
   * replaced by a refresh in between.
   */
  private String text(String css) {
    return String.valueOf(
        ui.script(
            "var e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null",
            css));
  }

  private Object script(String js) {
    return ui.script(js);
  }
}
