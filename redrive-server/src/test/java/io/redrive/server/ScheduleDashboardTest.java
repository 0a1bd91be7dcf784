package io.redrive.server;

import static io.redrive.server.UiClient.csrfOf;
import static io.redrive.server.UiClient.form;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.MessageQuery;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Role;
import io.redrive.server.ui.Fmt;
import io.redrive.testkit.ControllableClock;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schedules pages: the list with next and last fire times, a schedule's page with its target,
 * and pause, resume and trigger now, refused to a viewer and hidden from a key scoped elsewhere.
 * Schedules are saved and fired by an engine on the server's store reading a controllable clock
 * (from 2030, so the server's own scheduler, on the system clock, never finds them due).
 */
class ScheduleDashboardTest {
  private static final String SCOPED_KEY = "scoped-secret-0123456789abcdef";
  private static final String EMPTY_KEY = "empty-secret-0123456789abcdef";
  private static final Pattern FIRED_LINK =
      Pattern.compile("id=\"fired-link\" href=\"/ui/messages/([^\"]+)\"");

  @TempDir static Path dir;
  private static TestServers.Keyed server;
  private static final ControllableClock clock = ControllableClock.startingAtEpochOfTests();
  private static Redrive engine;

  @BeforeAll
  static void start() {
    server =
        TestServers.keyed(
            dir,
            new ApiKey("sam", SCOPED_KEY, Role.ADMIN, List.of("mine.*")),
            new ApiKey("nora", EMPTY_KEY, Role.VIEWER, List.of("nothing.*"), List.of("Nothing*")));
    engine = server.engine(clock);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String queue(String prefix) {
    String q = TestServers.unique(prefix);
    engine.createQueue(q, QueuePolicy.defaults());
    return q;
  }

  private static Schedule hourly(String name, String queue) {
    return Schedule.builder(
            name,
            ScheduleSpec.every(Duration.ofHours(1)),
            ScheduleTarget.message(queue, "build", "{\"report\":\"daily\"}"))
        .build();
  }

  @Test
  void list_showsEachScheduleWithItsNextAndLastFire() throws Exception {
    String q = queue("reports");
    String name = TestServers.unique("hourly");
    Instant saved = clock.instant();
    engine.schedules().save(hourly(name, q));
    String cron = TestServers.unique("berlin");
    engine
        .schedules()
        .save(
            Schedule.builder(
                    cron,
                    ScheduleSpec.cron("30 2 * * *", "Europe/Berlin"),
                    new ScheduleTarget.Message(
                        q, "nightly", "", java.util.Map.of(), null, null, 7, "acme"))
                .jitter(Duration.ofSeconds(10))
                .build());
    Instant due = clock.advance(Duration.ofHours(1));
    assertThat(engine.schedules().fireDue(100)).anyMatch(f -> f.schedule().equals(name));

    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    String list = ada.get("/ui/schedules").body();
    assertThat(list).contains("id=\"nav-schedules\" class=\"on\"");
    String row = rowOf(list, name);
    assertThat(row)
        .contains("every 1h")
        .contains("build</span> to <a href=\"/ui/queues/" + UiFmt.seg(q) + "\">")
        .contains(">active<")
        .contains("next-due\" title=\"" + Fmt.time(saved.plus(Duration.ofHours(2))))
        .contains("last-due\" title=\"" + Fmt.time(due))
        .contains("last-fired\" title=\"" + Fmt.time(due))
        .contains("once (the latest missed)")
        .contains("<td class=\"jitter\">none</td>");
    assertThat(rowOf(list, cron))
        .contains("30 2 * * * (Europe/Berlin)")
        .contains("next-due\" title=\"" + Fmt.time(Instant.parse("2030-01-01T01:30:00Z")))
        .contains("<td class=\"last-due\" title=\"—\">—</td>")
        .contains("up to 10s");

    String page = ada.get("/ui/schedules/" + name).body();
    assertThat(page)
        .contains("<td id=\"s-last-fired\">")
        .contains(Fmt.time(due))
        .contains("id=\"t-queue\"")
        .contains("\"report\" : \"daily\"")
        .contains("id=\"pause-toggle\" class=\"action\">Pause<")
        .contains("id=\"trigger\"")
        .contains("id=\"t-priority\">the queue's default<");
    assertThat(ada.get("/ui/schedules/" + cron).body())
        .contains("id=\"t-priority\">7<")
        .contains("id=\"t-limit-key\">acme<");
  }

  @Test
  void pause_andResume_throughThePage_changeTheSchedule() throws Exception {
    String name = TestServers.unique("pausable");
    engine.schedules().save(hourly(name, queue("pausing")));
    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    String token = csrfOf(ada.get("/ui/schedules/" + name).body());

    HttpResponse<String> paused =
        ada.post("/ui/schedules/" + name + "/pause", form("_csrf", token));
    assertThat(paused.statusCode()).isEqualTo(303);
    assertThat(paused.headers().firstValue("Location")).hasValue("/ui/schedules/" + name);
    assertThat(engine.schedules().find(name).orElseThrow().schedule().paused()).isTrue();
    assertThat(ada.get("/ui/schedules/" + name).body())
        .contains("<span class=\"badge paused\">paused</span>")
        .contains(">Resume<");
    assertThat(rowOf(ada.get("/ui/schedules").body(), name)).contains(">paused<");

    ada.post("/ui/schedules/" + name + "/resume", form("_csrf", token));
    assertThat(engine.schedules().find(name).orElseThrow().schedule().paused()).isFalse();
  }

  @Test
  void triggerNow_producesOneMessage_andLinksToIt() throws Exception {
    String q = queue("triggered");
    String name = TestServers.unique("now");
    engine.schedules().save(hourly(name, q));
    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    String token = csrfOf(ada.get("/ui/schedules/" + name).body());

    HttpResponse<String> posted =
        ada.post("/ui/schedules/" + name + "/trigger", form("_csrf", token));
    assertThat(posted.statusCode()).isEqualTo(303); // post, redirect, get: a reload fires nothing
    String location = posted.headers().firstValue("Location").orElseThrow();
    HttpResponse<String> fired = ada.get(location);
    assertThat(fired.body()).contains("id=\"fired\"").contains("Triggered: produced");
    assertThat(ada.get(location).body()).contains("Triggered: produced");
    Matcher link = FIRED_LINK.matcher(fired.body());
    assertThat(link.find()).as(fired.body()).isTrue();
    String id = link.group(1);
    var messages = engine.listMessages(MessageQuery.all(q)).messages();
    assertThat(messages).singleElement().satisfies(m -> assertThat(m.id()).isEqualTo(id));
    assertThat(ada.get("/ui/queues/" + q + "/messages").body()).contains(id);
    assertThat(ada.get("/ui/messages/" + id).body()).contains("redrive-schedule").contains(name);
  }

  @Test
  void viewer_seesNoButtons_andItsForgedPostsAreRefused() throws Exception {
    String q = queue("viewed");
    String name = TestServers.unique("viewed");
    engine.schedules().save(hourly(name, q));
    UiClient vic = server.signedIn(TestServers.VIEWER_KEY);
    String page = vic.get("/ui/schedules/" + name).body();
    assertThat(page).contains("Schedule " + name).doesNotContain("pause-toggle", "id=\"trigger\"");

    // The viewer's own token, from its own page: only the role stops the actions.
    String token = csrfOf(page);
    for (String action : List.of("pause", "trigger")) {
      HttpResponse<String> r =
          vic.post("/ui/schedules/" + name + "/" + action, form("_csrf", token));
      assertThat(r.statusCode()).as(action).isEqualTo(403);
    }
    assertThat(engine.schedules().find(name).orElseThrow().schedule().paused()).isFalse();
    assertThat(engine.listMessages(MessageQuery.all(q)).messages()).isEmpty();

    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    HttpResponse<String> noToken =
        ada.post("/ui/schedules/" + name + "/pause", Map.of("_csrf", "forged"));
    assertThat(noToken.statusCode()).isEqualTo(403);
    assertThat(noToken.body()).contains("CSRF_CHECK_FAILED");
    assertThat(engine.schedules().find(name).orElseThrow().schedule().paused()).isFalse();
  }

  @Test
  void unknownSchedule_isA404Page() throws Exception {
    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    HttpResponse<String> r = ada.get("/ui/schedules/" + TestServers.unique("nowhere"));
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.body()).contains("SCHEDULE_NOT_FOUND");
    String token = csrfOf(ada.get("/ui/schedules").body());
    assertThat(ada.post("/ui/schedules/nowhere-at-all/trigger", form("_csrf", token)).statusCode())
        .isEqualTo(404);
  }

  @Test
  void aScopedKey_seesAndActsOnlyOnSchedulesOfItsQueues() throws Exception {
    String mine = TestServers.unique("mine.q");
    engine.createQueue(mine, QueuePolicy.defaults());
    String other = queue("other");
    String ours = TestServers.unique("ours");
    String theirs = TestServers.unique("theirs");
    engine.schedules().save(hourly(ours, mine));
    engine.schedules().save(hourly(theirs, other));

    UiClient sam = server.signedIn(SCOPED_KEY);
    String list = sam.get("/ui/schedules").body();
    assertThat(list).contains("data-schedule=\"" + ours + "\"").doesNotContain(theirs, other);
    assertThat(sam.get("/ui/schedules/" + theirs).statusCode()).isEqualTo(404);
    String token = csrfOf(list);
    for (String action : List.of("pause", "trigger")) {
      HttpResponse<String> r =
          sam.post("/ui/schedules/" + theirs + "/" + action, form("_csrf", token));
      assertThat(r.statusCode()).as(action).isEqualTo(404);
      assertThat(r.body()).doesNotContain(other);
    }
    assertThat(engine.schedules().find(theirs).orElseThrow().schedule().paused()).isFalse();
    assertThat(engine.listMessages(MessageQuery.all(other)).messages()).isEmpty();
    assertThat(sam.get("/ui/schedules/" + ours).body()).contains("id=\"pause-toggle\"");
  }

  @Test
  void noVisibleSchedules_saysSo() throws Exception {
    engine.schedules().save(hourly(TestServers.unique("unseen"), queue("unseen")));
    String list = server.signedIn(EMPTY_KEY).get("/ui/schedules").body();
    assertThat(list).contains("id=\"no-schedules\"").doesNotContain("id=\"schedules\"");
  }

  @Test
  void hostileText_inTheTarget_isShownEscaped() throws Exception {
    String script = "<script>window.__xss=1</script>";
    String img = "\"><img src=x onerror=\"window.__xss=2\">";
    String q = queue("xss");
    String name = TestServers.unique("xss");
    engine
        .schedules()
        .save(
            Schedule.builder(
                    name,
                    ScheduleSpec.every(Duration.ofMinutes(5)),
                    new ScheduleTarget.Message(
                        q, script, img, Map.of("x-evil", script), null, null))
                .build());
    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    for (String page :
        List.of(ada.get("/ui/schedules").body(), ada.get("/ui/schedules/" + name).body())) {
      assertThat(page).doesNotContain(script, "<img").contains("&lt;script&gt;window.__xss=1");
    }
    assertThat(ada.get("/ui/schedules/" + name).body())
        .contains("\"&gt;&lt;img src=x onerror=\"window.__xss=2\"&gt;");
    // A payload that starts like JSON but is not (text after a JSON string) shows as stored, on
    // the message page too, never as the string it starts with.
    String id = engine.enqueue(NewMessage.builder(q, "t").payload(img).build()).id();
    assertThat(ada.get("/ui/messages/" + id).body())
        .contains("\"&gt;&lt;img src=x onerror=\"window.__xss=2\"&gt;</pre>");
  }

  @Test
  void aWorkflowSchedule_showsItsOrchestration_andTriggerLinksToTheInstance() throws Exception {
    String name = TestServers.unique("wf");
    engine
        .schedules()
        .save(
            Schedule.builder(
                    name,
                    ScheduleSpec.every(Duration.ofMinutes(10)),
                    ScheduleTarget.workflow("OrderSweep", "{\"region\":\"eu\"}"))
                .build());
    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    assertThat(rowOf(ada.get("/ui/schedules").body(), name))
        .contains("workflow <span class=\"workflow\">OrderSweep</span>");
    String page = ada.get("/ui/schedules/" + name).body();
    assertThat(page).contains("id=\"t-workflow\"").contains("\"region\" : \"eu\"");
    HttpResponse<String> posted =
        ada.post("/ui/schedules/" + name + "/trigger", form("_csrf", csrfOf(page)));
    assertThat(posted.statusCode()).isEqualTo(303);
    String fired = ada.get(posted.headers().firstValue("Location").orElseThrow()).body();
    assertThat(fired).contains("href=\"/ui/workflows/" + UiFmt.seg(name + "-"));
  }

  /** The {@code <tr>} of schedule {@code name} in the list page. */
  private static String rowOf(String html, String name) {
    int start = html.indexOf("<tr data-schedule=\"" + name + "\"");
    assertThat(start).as("row of " + name + " in\n" + html).isNotNegative();
    return html.substring(start, html.indexOf("</tr>", start));
  }
}
