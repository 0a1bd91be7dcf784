package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.message.Outcome;
import io.redrive.queue.QueuePolicy;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.server.browser.DashboardUi.QueueRow;
import io.redrive.server.browser.DashboardUi.TimelineEntry;
import io.redrive.testkit.process.Behaviour;
import io.redrive.testkit.process.ChildWorker;
import io.redrive.testkit.process.WorkerSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The dashboard in headless Chromium on each store: signing in and out through the form, the
 * overview's counts, a killed worker's delivery on a message's timeline, a viewer who sees no
 * buttons and whose forged form is refused, and a schedule paused and triggered by clicks.
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DashboardBrowserTest extends BrowserTestBase {
  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final Duration CHILD_STARTUP = Duration.ofSeconds(30);

  @Test
  void signIn_andSignOut_throughTheForm() {
    ui.open("/ui/queues/anything");
    ui.screenshot("login");
    assertThat(ui.path()).isEqualTo("/ui/login?next=%2Fui%2Fqueues%2Fanything");
    assertThat(ui.has("#login-form")).isTrue();
    assertThat(ui.has("#login-error")).isFalse();

    ui.open("/ui/login").signIn(ADMIN_KEY);
    assertThat(ui.path()).isEqualTo("/ui");
    assertThat(ui.text("#user")).isEqualTo("ada");
    assertThat(ui.text("#role")).isEqualTo("admin");

    ui.signOut();
    assertThat(ui.path()).isEqualTo("/ui/login");
    ui.open("/ui");
    assertThat(ui.path())
        .as("signed out: the overview asks for a key again")
        .startsWith("/ui/login");
  }

  @Test
  void signIn_withAnUnknownKey_showsTheError_andOpensNoSession() {
    ui.signIn("not-a-key-0123456789abcdef");
    ui.screenshot("login-error");
    assertThat(ui.text("#login-error")).isEqualTo("That key is not known to this server.");
    assertThat(ui.has("#key")).isTrue();
    ui.open("/ui");
    assertThat(ui.path()).startsWith("/ui/login");
  }

  @Test
  void overview_countsEachQueueByState() {
    String q = queue("counts", QueuePolicy.defaults().withMaxAttempts(1));
    for (int i = 0; i < 6; i++) {
      redrive.enqueue(NewMessage.builder(q, "job").payload("{\"n\":" + i + "}").build());
    }
    for (int i = 0; i < 2; i++) {
      redrive.enqueue(NewMessage.builder(q, "job").delay(Duration.ofHours(1)).build());
    }
    List<LeasedMessage> leased = redrive.lease(LeaseRequest.of(q, "w-counts", 3)).leased();
    assertThat(leased).hasSize(3);
    redrive.fail(
        FailRequest.of(leased.get(0).token(), FailureReason.HANDLER_EXCEPTION, "boom")
            .withRetryable(false));
    String paused = queue("counts-paused", QueuePolicy.defaults());
    redrive.pauseQueue(paused);

    ui.signIn(ADMIN_KEY);
    ui.screenshot("overview");
    assertThat(ui.heading()).isEqualTo("Queues");
    assertThat(ui.overviewRow(q)).hasValue(new QueueRow(q, 3, 2, 2, 0, 1, "running"));
    assertThat(ui.overviewRow(paused)).hasValue(new QueueRow(paused, 0, 0, 0, 0, 0, "paused"));
    assertThat(ui.rows("table#queues tr[data-queue='" + q + "']"))
        .singleElement()
        .satisfies(
            row ->
                assertThat(row)
                    .containsEntry("data-queue", q)
                    .containsEntry("ready", "3")
                    .containsEntry("dead", "1"));

    ui.clickAndWait("table#queues tr[data-queue='" + q + "'] a.queue-link");
    ui.screenshot("queue");
    assertThat(ui.path()).isEqualTo("/ui/queues/" + q);
    assertThat(ui.heading()).isEqualTo("Queue " + q);
    assertThat(List.of(ui.text("#q-ready"), ui.text("#q-scheduled"), ui.text("#q-leased")))
        .containsExactly("3", "2", "2");
    assertThat(ui.text("#q-dead")).isEqualTo("1");
    assertThat(ui.has("#pause-toggle")).as("an admin may pause").isTrue();
    assertThat(browser.console()).as("console").isEmpty();
  }

  @Test
  void schedule_isPausedAndTriggered_byClicksOnItsPage() {
    String q = queue("sched", QueuePolicy.defaults());
    String name = "nightly-" + q;
    redrive
        .schedules()
        .save(
            Schedule.builder(
                    name, ScheduleSpec.cron("0 3 * * *"), ScheduleTarget.message(q, "report", "{}"))
                .build());

    ui.signIn(ADMIN_KEY).clickAndWait("#nav-schedules");
    ui.clickAndWait("table#schedules tr[data-schedule='" + name + "'] a.schedule-link");
    assertThat(ui.heading()).isEqualTo("Schedule " + name);
    assertThat(ui.text("#s-spec")).isEqualTo("0 3 * * * (UTC)");
    ui.clickAndWait("#pause-toggle");
    ui.screenshot("schedule-paused");
    assertThat(ui.text("#s-state")).startsWith("paused");
    assertThat(redrive.schedules().find(name).orElseThrow().schedule().paused()).isTrue();

    ui.clickAndWait("#trigger");
    assertThat(ui.text("#fired")).startsWith("Triggered: produced message");
    ui.clickAndWait("#fired-link");
    assertThat(ui.text("#m-queue")).isEqualTo(q);
    assertThat(ui.text("#m-type")).isEqualTo("report");

    // Both pages fit a phone: the list's table scrolls in its own box, the header's links wrap.
    ui.phone(PhoneWidthBrowserTest.PHONE_WIDTH, 844);
    try {
      for (String path : List.of("/ui/schedules", "/ui/schedules/" + name)) {
        ui.open(path);
        assertThat(
                ui.script(
                    "return document.documentElement.scrollWidth <= window.innerWidth"
                        + " ? null : document.documentElement.scrollWidth"))
            .as("%s: page width beyond the phone's", path)
            .isNull();
      }
      ui.screenshot("schedules-phone");
    } finally {
      ui.desktop();
    }
    assertThat(browser.console()).as("console").isEmpty();
  }

  @Test
  void killedWorker_showsOnTheTimeline_asALeaseExpiredDelivery() {
    String q = queue("crash", QueuePolicy.defaults().withLeaseTimeout(LEASE).withMaxAttempts(5));
    String victim = "victim-" + kind.label();
    String id =
        redrive.enqueue(NewMessage.builder(q, "slow").payload("{\"slow\":true}").build()).id();
    try (ChildWorker child =
        ChildWorker.start(
            WorkerSpec.of(victim, q).handler("slow", Behaviour.BLOCK),
            database.address(),
            Browsers.TARGET.resolve("browser").resolve("workers-" + kind.label()))) {
      child.awaitReady(CHILD_STARTUP);
      assertThat(child.awaitRunning(id, CHILD_STARTUP)).as("attempt").isEqualTo(1);
      assertThat(child.kill()).as("exit status after SIGKILL").isEqualTo(137);
    }
    // Nothing settles for the killed worker: its lease runs out, and the next lease of the queue
    // records the lost delivery as LEASE_EXPIRED before handing the message out again.
    AtomicReference<LeasedMessage> again = new AtomicReference<>();
    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              List<LeasedMessage> got = redrive.lease(LeaseRequest.of(q, "survivor", 1)).leased();
              got.stream().findFirst().ifPresent(again::set);
              return again.get() != null;
            });
    // Left leased: a completed message is gone from the store, and with it its page.
    assertThat(again.get().id()).isEqualTo(id);
    assertThat(redrive.getMessage(id).history())
        .extracting(e -> e.outcome())
        .contains(Outcome.LEASE_EXPIRED);

    ui.signIn(ADMIN_KEY).open("/ui/messages/" + id);
    ui.screenshot("message");
    assertThat(ui.heading()).isEqualTo("Message " + id);
    List<TimelineEntry> timeline = ui.timeline();
    assertThat(timeline)
        .extracting(TimelineEntry::outcome)
        .containsExactly("LEASE_EXPIRED", "LEASED");
    TimelineEntry crash = timeline.get(0);
    assertThat(crash.verdict()).isEqualTo("lease expired — likely crash");
    assertThat(crash.worker()).isEqualTo("on " + victim);
    assertThat(crash.attempt()).isEqualTo("attempt 1");
    assertThat(crash.failureMessage()).contains("worker " + victim);
    assertThat(ui.find("#timeline li.entry[data-outcome=LEASE_EXPIRED]").getDomAttribute("class"))
        .contains("crash");
    assertThat(timeline.get(1))
        .isEqualTo(
            new TimelineEntry("LEASED", "in progress (leased)", "attempt 2", "on survivor", null));
    assertThat(browser.console()).as("console").isEmpty();
  }

  @Test
  void viewer_seesNoActions_andAForgedPauseIsRefused() {
    String q = queue("viewer", QueuePolicy.defaults().withMaxAttempts(1));
    redrive.enqueue(NewMessage.builder(q, "job").build());
    LeasedMessage m = redrive.lease(LeaseRequest.of(q, "w-viewer", 1)).leased().get(0);
    redrive.fail(FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "boom"));

    ui.signIn(VIEWER_KEY);
    assertThat(ui.text("#role")).isEqualTo("viewer");
    ui.open("/ui/messages/" + m.id());
    assertThat(ui.has("#message-actions")).isFalse();
    assertThat(ui.has("#retry")).isFalse();
    assertThat(ui.has("#drop")).isFalse();
    ui.open("/ui/queues/" + q);
    ui.screenshot("queue-viewer");
    assertThat(ui.has("#pause-toggle")).isFalse();

    // The viewer's own token, from its own page: only the role stops the pause.
    String token = ui.csrfToken();
    assertThat(ui.fetchPost("/ui/queues/" + q + "/pause", Map.of("_csrf", token)))
        .as("status of a pause posted by the viewer's page")
        .isEqualTo(403);
    ui.submitForm("/ui/queues/" + q + "/pause", Map.of("_csrf", token));
    ui.screenshot("forbidden");
    assertThat(ui.text("#error-code")).isEqualTo("FORBIDDEN");
    assertThat(redrive.getQueue(q).paused()).isFalse();

    // The same form with a made-up token fails the CSRF check before the role is looked at.
    ui.open("/ui/queues/" + q);
    ui.submitForm("/ui/queues/" + q + "/pause", Map.of("_csrf", "forged"));
    assertThat(ui.text("#error-code")).isEqualTo("CSRF_CHECK_FAILED");
    assertThat(redrive.getQueue(q).paused()).isFalse();
    // The console holds the three refusals and nothing else: no script error, no CSP report.
    List<String> console = browser.console();
    assertThat(console)
        .filteredOn(line -> line.contains("/pause - ") && line.contains("status of 403"))
        .hasSize(3);
    assertThat(console)
        .allSatisfy(line -> assertThat(line).matches(".*/pause - .*status of 403.*"));
  }

  @Test
  void messageList_previousPage_returnsToTheEarlierPage() {
    String q = queue("paged", QueuePolicy.defaults());
    for (int i = 0; i < 120; i++) {
      redrive.enqueue(NewMessage.builder(q, "job").payload("{\"n\":" + i + "}").build());
    }
    ui.signIn(ADMIN_KEY);
    ui.open("/ui/queues/" + q + "/messages?state=ready");
    assertThat(ui.has("#previous-page")).as("the first page has no previous").isFalse();
    List<String> first = rowIds();
    ui.clickAndWait("#next-page");
    List<String> second = rowIds();
    ui.clickAndWait("#next-page");
    assertThat(ui.has("#next-page")).as("the third page is the last").isFalse();
    assertThat(second).hasSize(50).doesNotContainAnyElementsOf(first);

    ui.clickAndWait("#previous-page");
    assertThat(rowIds()).isEqualTo(second);
    ui.clickAndWait("#previous-page");
    assertThat(rowIds()).isEqualTo(first);
    assertThat(ui.path()).contains("state=ready");
    assertThat(ui.has("#previous-page")).isFalse();
    assertThat(browser.console()).as("console").isEmpty();
  }

  private List<String> rowIds() {
    return ui.all("table#messages tr[data-id]").stream()
        .map(tr -> tr.getDomAttribute("data-id"))
        .toList();
  }
}
