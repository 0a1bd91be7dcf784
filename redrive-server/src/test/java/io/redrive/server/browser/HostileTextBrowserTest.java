package io.redrive.server.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueueNames;
import io.redrive.queue.QueuePolicy;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.server.browser.DashboardUi.TimelineEntry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Stored strings that look like markup or script — in a payload, a type, a header, an error
 * message, a stack trace, a worker id, a schedule's target — and a queue name as strange as queue
 * names may be, shown by the dashboard in Chromium: each reads back as the same text, no element is
 * made from it, no script runs ({@code window.__xss} stays undefined), and the console stays empty
 * (no script error, no Content-Security-Policy violation).
 */
@ParameterizedClass
@EnumSource(BrowserStore.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HostileTextBrowserTest extends BrowserTestBase {
  private static final String SCRIPT = "<script>window.__xss=1</script>";
  private static final String IMG = "\"><img src=x onerror=\"window.__xss=2\">";
  private static final String JS_URL = "javascript:window.__xss=3";
  private static final String WORKER = "<img src=x onerror=\"window.__xss=4\">";
  private static final String MESSAGE = IMG + " then " + SCRIPT + " see " + JS_URL;
  private static final String STACK =
      "java.lang.IllegalStateException: "
          + SCRIPT
          + "\n\tat "
          + IMG
          + "(Handler.java:1)\n\tat <a href=\""
          + JS_URL
          + "\">x</a>(Main.java:2)";

  /**
   * A queue name of nothing but the characters names allow that mean something elsewhere (dots,
   * dashes, underscores), as long as names may be.
   */
  private static String hostileQueueName() {
    StringBuilder name = new StringBuilder("-._-hostile_.-");
    while (name.length() < QueueNames.MAX_LENGTH) {
      name.append("._-");
    }
    return QueueNames.require("name", name.substring(0, QueueNames.MAX_LENGTH));
  }

  @Test
  void hostileStrings_onTheMessagePage_readBackAsText_andRunNothing() throws Exception {
    String q = queue("xss", QueuePolicy.defaults().withMaxAttempts(1));
    String payload = SCRIPT + "\n" + IMG + "\n" + JS_URL;
    String id =
        redrive
            .enqueue(
                NewMessage.builder(q, SCRIPT)
                    .payload(payload)
                    .headers(Map.of(SCRIPT, JS_URL, "x-img", IMG))
                    .build())
            .id();
    LeasedMessage m = redrive.lease(LeaseRequest.of(q, WORKER, 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, MESSAGE).withStackTrace(STACK));

    ui.signIn(ADMIN_KEY).open("/ui/messages/" + id);
    ui.screenshot("message-hostile");
    assertThat(ui.text("#m-type")).isEqualTo(SCRIPT);
    assertThat(ui.text("#payload")).isEqualTo(payload);
    assertThat(ui.text("#headers")).contains(SCRIPT + " " + JS_URL).contains("x-img " + IMG);
    List<TimelineEntry> timeline = ui.timeline();
    assertThat(timeline).hasSize(1);
    assertThat(timeline.get(0).worker()).isEqualTo("on " + WORKER);
    assertThat(timeline.get(0).failureMessage()).isEqualTo(MESSAGE);
    ui.find("#timeline details.stack summary").click();
    // WebDriver's visible text shows a tab as a space; the DOM's text is the stored string.
    assertThat(ui.text("#timeline .stack-trace")).isEqualTo(STACK.replace('\t', ' '));
    assertThat(ui.find("#timeline .stack-trace").getDomProperty("textContent")).isEqualTo(STACK);
    assertNothingMadeFromText();

    ui.open("/ui/queues/" + q + "/messages");
    ui.screenshot("messages-hostile");
    assertThat(ui.text("#messages tbody td:nth-child(2)")).isEqualTo(SCRIPT);
    assertThat(ui.text("#messages tbody td.clip")).contains(MESSAGE);
    assertNothingMadeFromText();
  }

  @Test
  void jsonPayload_withHostileStrings_isShownPrettyPrinted_asText() throws Exception {
    String q = queue("xss-json", QueuePolicy.defaults());
    String payload =
        new ObjectMapper().writeValueAsString(Map.of("html", SCRIPT, "attr", IMG, "link", JS_URL));
    String id = redrive.enqueue(NewMessage.builder(q, "json").payload(payload).build()).id();

    ui.signIn(ADMIN_KEY).open("/ui/messages/" + id);
    ObjectMapper json = new ObjectMapper();
    assertThat(ui.text("#payload"))
        .isEqualTo(
            json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(payload)));
    assertNothingMadeFromText();
  }

  @Test
  void hostileStrings_inAScheduleTarget_readBackAsText_andRunNothing() {
    String q = queue("xss-schedule", QueuePolicy.defaults());
    String name = "xss-" + q;
    String payload = IMG + "\n" + SCRIPT;
    redrive
        .schedules()
        .save(
            Schedule.builder(
                    name,
                    ScheduleSpec.every(Duration.ofHours(1)),
                    new ScheduleTarget.Message(
                        q, SCRIPT, payload, Map.of(SCRIPT, JS_URL), null, null))
                .build());

    ui.signIn(ADMIN_KEY).open("/ui/schedules");
    assertThat(ui.text("table#schedules tr[data-schedule='" + name + "'] .type")).isEqualTo(SCRIPT);
    ui.open("/ui/schedules/" + name);
    ui.screenshot("schedule-hostile");
    assertThat(ui.text("#t-type")).isEqualTo(SCRIPT);
    assertThat(ui.text("#payload")).isEqualTo(payload);
    assertThat(ui.text("#headers")).contains(SCRIPT + " " + JS_URL);
    assertNothingMadeFromText();
  }

  @Test
  void hostileQueueName_isListed_linked_andShownAsText() {
    String q = hostileQueueName(); // each store's database is new: no other test has it
    redrive.createQueue(q, QueuePolicy.defaults());
    String id = redrive.enqueue(NewMessage.builder(q, "job").payload("{}").build()).id();

    ui.signIn(ADMIN_KEY);
    ui.screenshot("overview-hostile-queue");
    assertThat(ui.overviewRow(q)).hasValueSatisfying(row -> assertThat(row.name()).isEqualTo(q));
    ui.clickAndWait("table#queues tr[data-queue='" + q + "'] a.queue-link");
    ui.screenshot("queue-hostile");
    assertThat(ui.heading()).isEqualTo("Queue " + q);
    assertThat(ui.text("#q-ready")).isEqualTo("1");

    ui.open("/ui/messages/" + id);
    assertThat(ui.text("#m-queue")).isEqualTo(q);
    ui.clickAndWait("p.links a");
    assertThat(ui.heading())
        .as("the message page's link back to its queue")
        .isEqualTo("Queue " + q);
    assertNothingMadeFromText();
  }

  /**
   * The page holds no element made from stored text: no image or foreign script in the content, no
   * {@code javascript:} link, no flag set by an injected script, and nothing in the console.
   */
  private void assertNothingMadeFromText() {
    assertThat(ui.all("main img")).as("images in the page's content").isEmpty();
    assertThat(ui.all("#payload *, #timeline img, #timeline script, #timeline a"))
        .as("elements inside the payload or the timeline")
        .isEmpty();
    assertThat(ui.all("body script")).as("scripts in the body").isEmpty();
    assertThat(ui.all("a[href^='javascript:' i], [onerror], [onclick], [onload]"))
        .as("script links and handlers")
        .isEmpty();
    assertThat(ui.script("return typeof window.__xss")).isEqualTo("undefined");
    assertThat(browser.console()).as("console").isEmpty();
  }
}
