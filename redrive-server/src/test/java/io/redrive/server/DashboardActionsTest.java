package io.redrive.server;

import static io.redrive.server.UiClient.form;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.Redrive;
import io.redrive.deadletter.DeadGroup;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueueUpdate;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The dashboard's dead-letter groups and actions over real HTTP on SQLite and PostgreSQL (a keyless
 * server: the visitor is the anonymous admin, still bound to a session and its form token): groups
 * with the right counts, a confirmation that counts and changes nothing, and a retry, drop or
 * redrive of a group done by a job that reports what it did.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class DashboardActionsTest extends ApiTestBase {
  private static final Pattern JOB = Pattern.compile("/ui/jobs/([0-9a-f]+)");

  private Redrive redrive;
  private UiClient ui;

  @BeforeEach
  void open() {
    redrive = server.redrive();
    ui = new UiClient(server.baseUrl());
  }

  /**
   * Kills {@code n} messages of {@code type} in {@code queue}, each with {@code error} + a number.
   */
  private void kill(String queue, String type, int n, String error, String frame) {
    for (int i = 0; i < n; i++) {
      redrive.enqueue(NewMessage.builder(queue, type).payload("{\"n\":" + i + "}").build());
    }
    for (LeasedMessage m : redrive.lease(LeaseRequest.of(queue, "w", n)).leased()) {
      redrive.fail(
          FailRequest.of(
                  m.token(),
                  FailureReason.HANDLER_EXCEPTION,
                  error + " " + (1000 + m.id().hashCode() % 97))
              .withRetryable(false)
              .withStackTrace("java.lang.IllegalStateException: x\n\tat " + frame + "(A.java:1)"));
    }
  }

  private String queueWithDead() {
    String q = queue("ui-groups", "maxAttempts", 1);
    kill(q, "charge", 5, "card declined for order", "shop.Pay.charge");
    kill(q, "charge", 2, "gateway timeout after", "shop.Gateway.call");
    return q;
  }

  private DeadGroup group(String queue, String frame) {
    return redrive.deadGroups(queue, 100).groups().stream()
        .filter(g -> g.pieces().frames().contains(frame))
        .findFirst()
        .orElseThrow();
  }

  private String runJob(String confirmPath) throws Exception {
    HttpResponse<String> confirm = ui.get(confirmPath);
    assertThat(confirm.statusCode()).as(confirm.body()).isEqualTo(200);
    String page = confirm.body();
    HttpResponse<String> posted =
        ui.post(
            "/ui/actions",
            form(
                "_csrf", UiClient.csrfOf(page),
                "op", value(page, "op"),
                "queue", value(page, "queue"),
                "fingerprint", value(page, "fingerprint"),
                "expected", value(page, "expected")));
    assertThat(posted.statusCode()).as(posted.body()).isEqualTo(303);
    Matcher m = JOB.matcher(posted.headers().firstValue("Location").orElseThrow());
    assertThat(m.find()).isTrue();
    String jobPath = "/ui/jobs/" + m.group(1);
    // The job runs on the server; its page is what a user would reload until it is done.
    return await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> ui.get(jobPath).body(), body -> body.contains("data-status=\"done\""));
  }

  /** Confirms {@code op} on message {@code id} as its page's button leads to, and posts it. */
  private void actOnOne(String op, String id) throws Exception {
    HttpResponse<String> confirm = ui.get("/ui/confirm?op=" + op + "&id=" + id);
    assertThat(confirm.body()).contains("id=\"dry-run-count\">1<");
    HttpResponse<String> posted =
        ui.post("/ui/actions", form("_csrf", UiClient.csrfOf(confirm.body()), "op", op, "id", id));
    assertThat(posted.statusCode()).isEqualTo(303);
  }

  private static String value(String html, String name) {
    Matcher m = Pattern.compile("name=\"" + name + "\" value=\"([^\"]*)\"").matcher(html);
    assertThat(m.find()).as("field " + name).isTrue();
    return m.group(1);
  }

  @Test
  void groupsPage_showsEachCauseWithItsCount() throws Exception {
    String q = queueWithDead();
    String page = ui.get("/ui/queues/" + q + "/dead").body();
    DeadGroup declined = group(q, "shop.Pay.charge");
    DeadGroup timeout = group(q, "shop.Gateway.call");
    assertThat(declined.count()).isEqualTo(5);
    assertThat(timeout.count()).isEqualTo(2);
    assertThat(page)
        .contains("data-fingerprint=\"" + declined.fingerprint() + "\"")
        .contains("data-fingerprint=\"" + timeout.fingerprint() + "\"")
        .contains("card declined for order &lt;n&gt;");
    assertThat(ui.get("/ui/dead").body()).contains(declined.fingerprint());
  }

  @Test
  void confirm_countsByDryRun_andChangesNothing() throws Exception {
    String q = queueWithDead();
    DeadGroup declined = group(q, "shop.Pay.charge");
    String page =
        ui.get("/ui/confirm?op=retry&queue=" + q + "&fingerprint=" + declined.fingerprint()).body();
    assertThat(page).contains("id=\"dry-run-count\">5<");
    assertThat(redrive.stats(q).dead()).isEqualTo(7);
  }

  @Test
  void retryGroup_emptiesIt_andItsMessagesAreReady() throws Exception {
    String q = queueWithDead();
    DeadGroup declined = group(q, "shop.Pay.charge");
    String job =
        runJob("/ui/confirm?op=retry&queue=" + q + "&fingerprint=" + declined.fingerprint());
    assertThat(job).contains("id=\"job-done\">5<");
    assertThat(redrive.stats(q).dead()).isEqualTo(2);
    assertThat(redrive.stats(q).ready()).isEqualTo(5);
    assertThat(
            redrive
                .listMessages(
                    MessageQuery.all(q)
                        .withStates(EnumSet.of(MessageState.DEAD))
                        .withFingerprint(declined.fingerprint()))
                .messages())
        .isEmpty();
  }

  @Test
  void dropGroup_deletesOnlyThatCause() throws Exception {
    String q = queueWithDead();
    DeadGroup timeout = group(q, "shop.Gateway.call");
    String job = runJob("/ui/confirm?op=drop&queue=" + q + "&fingerprint=" + timeout.fingerprint());
    assertThat(job).contains("id=\"job-done\">2<");
    assertThat(redrive.stats(q).dead()).isEqualTo(5);
  }

  @Test
  void redriveGroup_movesTheCopiesBackToTheirQueue() throws Exception {
    String dlq = queue("ui-dlq");
    String q = queue("ui-src", "maxAttempts", 1, "deadLetterQueue", dlq);
    kill(q, "ship", 3, "label printer offline", "shop.Label.print");
    DeadGroup g = group(dlq, "shop.Label.print");
    assertThat(g.count()).isEqualTo(3);
    String job = runJob("/ui/confirm?op=redrive&queue=" + dlq + "&fingerprint=" + g.fingerprint());
    assertThat(job).contains("id=\"job-done\">3<");
    assertThat(redrive.stats(dlq).dead()).isZero();
    assertThat(redrive.stats(q).ready()).isEqualTo(3);
  }

  /** The group card of {@code fingerprint} in a dead-letter groups page. */
  private static String card(String page, String fingerprint) {
    int at = page.indexOf("data-fingerprint=\"" + fingerprint + "\"");
    assertThat(at).as("card of group " + fingerprint).isNotNegative();
    return page.substring(at, page.indexOf("</article>", at));
  }

  @Test
  void deadLetterQueueCard_makesRedriveToTheSourcePrimary_andRetryHereSecondary() throws Exception {
    String dlq = queue("ui-dlq-card");
    String q = queue("ui-src-card", "maxAttempts", 1, "deadLetterQueue", dlq);
    kill(q, "ship", 3, "label printer offline", "shop.Label.print");
    DeadGroup g = group(dlq, "shop.Label.print");

    String card = card(ui.get("/ui/queues/" + dlq + "/dead").body(), g.fingerprint());
    assertThat(card)
        .contains("class=\"button action redrive-group\"")
        .contains(">Redrive 3 to " + q + "</a>")
        .contains("class=\"button secondary retry-group\"")
        .contains(">Retry here</a>");
    assertThat(card.indexOf("redrive-group")).isLessThan(card.indexOf("retry-group"));

    // Copies moved earlier stay redrivable after their source stops naming this queue.
    redrive.updateQueue(q, QueueUpdate.builder().clearDeadLetterQueue().build());
    assertThat(card(ui.get("/ui/queues/" + dlq + "/dead").body(), g.fingerprint()))
        .contains(">Redrive 3 to " + q + "</a>")
        .contains(">Retry here</a>");

    String id = redrive.listMessages(MessageQuery.all(dlq)).messages().get(0).id();
    String page = ui.get("/ui/messages/" + id).body();
    assertThat(page).contains(">Redrive to " + q + "</a>").contains(">Retry here</a>");
    assertThat(page.indexOf("id=\"redrive\"")).isLessThan(page.indexOf("id=\"retry\""));
  }

  @Test
  void deadLetterCopy_showsTheAttemptsItHadInItsSourceQueue() throws Exception {
    String dlq = queue("ui-dlq-tries");
    String q = queue("ui-src-tries", "maxAttempts", 3, "deadLetterQueue", dlq);
    String id = enqueue(q, "ship", "{}").get(0);
    for (int attempt = 1; attempt <= 3; attempt++) {
      LeasedMessage m = redrive.lease(LeaseRequest.of(q, "w", 1)).leased().get(0);
      redrive.fail(
          FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "printer offline")
              .withRetryAfter(Duration.ZERO));
    }
    String copy = redrive.listMessages(MessageQuery.all(dlq)).messages().get(0).id();
    assertThat(redrive.getMessage(copy).sourceId()).isEqualTo(id);

    String page = ui.get("/ui/messages/" + copy).body();
    assertThat(page)
        .contains("<td id=\"m-attempts\">0 of 5 here · <span id=\"m-source-attempts\">3 in " + q);
    assertThat(ui.get("/ui/queues/" + dlq + "/messages").body())
        .as("the list row too, read for the whole page at once")
        .contains("<td class=\"num attempts\">0 / 5 · 3 in " + q + "</td>");

    String plain = queueWithDead();
    String dead = redrive.listMessages(MessageQuery.all(plain)).messages().get(0).id();
    assertThat(ui.get("/ui/messages/" + dead).body())
        .contains("<td id=\"m-attempts\">1 of 1</td>")
        .doesNotContain("m-source-attempts");
  }

  @Test
  void ordinaryQueueCard_keepsRetryPrimary_withoutRedrive() throws Exception {
    String q = queueWithDead();
    DeadGroup declined = group(q, "shop.Pay.charge");
    String card = card(ui.get("/ui/queues/" + q + "/dead").body(), declined.fingerprint());
    assertThat(card)
        .contains("class=\"button action retry-group\"")
        .contains(">Retry 5</a>")
        .doesNotContain("redrive-group");
    String id =
        redrive
            .listMessages(MessageQuery.all(q).withStates(EnumSet.of(MessageState.DEAD)))
            .messages()
            .get(0)
            .id();
    assertThat(ui.get("/ui/messages/" + id).body())
        .contains(">Retry</a>")
        .doesNotContain("id=\"redrive\"");
  }

  @Test
  void actionWithoutTheFormToken_isRefused_andChangesNothing() throws Exception {
    String q = queueWithDead();
    DeadGroup declined = group(q, "shop.Pay.charge");
    ui.get("/ui"); // a session, but no token in the post
    HttpResponse<String> r =
        ui.post(
            "/ui/actions",
            form("op", "drop", "queue", q, "fingerprint", declined.fingerprint(), "expected", "5"));
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(redrive.stats(q).dead()).isEqualTo(7);
  }

  @Test
  void badInput_isAnErrorPageNamingIt() throws Exception {
    String q = queueWithDead();
    HttpResponse<String> r =
        ui.get("/ui/confirm?op=explode&queue=" + q + "&fingerprint=0123456789abcdef");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("op: must be retry, redrive or drop");
    HttpResponse<String> bad = ui.get("/ui/confirm?op=retry&queue=" + q + "&fingerprint=nope");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("fingerprint");
    assertThat(ui.get("/ui/queues/no-such-queue/dead").statusCode()).isEqualTo(404);
  }

  @Test
  void retryOneMessage_fromItsPage() throws Exception {
    String q = queue("ui-one", "maxAttempts", 1);
    kill(q, "charge", 1, "boom", "shop.Pay.charge");
    String id = redrive.listMessages(MessageQuery.all(q)).messages().get(0).id();
    String page = ui.get("/ui/messages/" + id).body();
    assertThat(page).contains("id=\"retry\"");
    actOnOne("retry", id);
    assertThat(redrive.getMessage(id).state()).isEqualTo(MessageState.READY);
    assertThat(
            List.of(
                redrive
                    .getMessage(id)
                    .history()
                    .get(redrive.getMessage(id).history().size() - 1)
                    .worker()))
        .containsExactly("ui:anonymous");
  }

  @Test
  void redriveOneMessage_fromItsPage_movesOnlyIt() throws Exception {
    String dlq = queue("ui-dlq1");
    String q = queue("ui-src1", "maxAttempts", 1, "deadLetterQueue", dlq);
    kill(q, "ship", 2, "label printer offline", "shop.Label.print");
    String id = redrive.listMessages(MessageQuery.all(dlq)).messages().get(0).id();
    String page = ui.get("/ui/messages/" + id).body();
    assertThat(page).contains("id=\"redrive\"");
    actOnOne("redrive", id);
    assertThat(redrive.getMessage(id).queue()).isEqualTo(q);
    assertThat(redrive.stats(dlq).dead()).isEqualTo(1);
  }

  /** A NUL in any page's input is a 400 page naming the field, on both stores, nothing changed. */
  @Test
  void nulInAPagesInput_400NamingTheField() throws Exception {
    String q = queueWithDead();
    for (String path :
        List.of(
            "/ui/queues/" + q + "/messages?state=DEAD%00",
            "/ui/queues/" + q + "/messages?fingerprint=a%00b",
            "/ui/queues/" + q + "/messages?after=1%00",
            "/ui/confirm?op=retry&queue=" + q + "&fingerprint=a%00b")) {
      HttpResponse<String> r = ui.get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(400);
      assertThat(r.body()).as(path).contains("must not contain the NUL character");
      assertThat(r.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
    }
    assertThat(redrive.stats(q).dead()).isEqualTo(7);
  }
}
