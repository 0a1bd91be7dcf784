package io.redrive.server;

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
import io.redrive.server.config.StoreSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's default retention of completed messages ({@code [server] completedRetention})
 * reaches the engine, and the dashboard shows a completed message's story: the queue page says how
 * long completed messages are kept and links to them, the list shows them, and the message page
 * shows the completion with every attempt.
 */
class CompletedStoryDashboardTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static Redrive redrive;

  @BeforeAll
  static void start() {
    server =
        TestServers.sqliteWithKeys(
            TestServers.config()
                .withStore(StoreSettings.sqlite(dir))
                .withCompletedRetention(Duration.ofHours(2)),
            new ApiKey("ada", ADMIN, Role.ADMIN, List.of()));
    redrive = server.redrive();
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @Test
  void theServersDefault_keepsTheStory_andTheDashboardShowsIt() throws Exception {
    assertThat(redrive.completedRetention()).isEqualTo(Duration.ofHours(2));
    redrive.createQueue("mails");
    redrive.createQueue("quiet", QueuePolicy.defaults().withCompletedRetention(Duration.ZERO));
    String id =
        redrive.enqueue(NewMessage.builder("mails", "welcome").payload("{\"to\":1}").build()).id();
    LeasedMessage first = redrive.lease(LeaseRequest.of("mails", "w-1", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(first.token(), FailureReason.DEPENDENCY_FAILURE, "smtp <down>")
            .withRetryAfter(Duration.ZERO));
    LeasedMessage second = redrive.lease(LeaseRequest.of("mails", "w-2", 1)).leased().get(0);
    redrive.complete(second.token());

    UiClient ada = UiClient.signedIn(server, ADMIN);
    HttpResponse<String> queue = ada.get("/ui/queues/mails");
    assertThat(queue.body())
        .contains("id=\"completed-link\"")
        .contains("kept 2h")
        .contains("(server default)");
    assertThat(ada.get("/ui/queues/quiet").body())
        .doesNotContain("id=\"completed-link\"")
        .contains("not kept");

    HttpResponse<String> list = ada.get("/ui/queues/mails/messages?state=completed");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).contains(id).contains("showing completed").contains("completed ");

    assertThat(ada.get("/ui/queues/mails/messages?state=completed&type=welcome").body())
        .as("the type filter keeps it")
        .contains(id)
        .contains("value=\"welcome\"");
    assertThat(ada.get("/ui/queues/mails/messages?state=completed&type=invoice").body())
        .as("another type")
        .doesNotContain(id);

    HttpResponse<String> page = ada.get("/ui/messages/" + id);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body())
        .contains("id=\"m-completed-at\"")
        .contains("Completed by")
        .contains("w-2")
        .contains("smtp &lt;down&gt;")
        .doesNotContain("smtp <down>");
  }

  @Test
  void completedMessages_pageWithNextAndPrevious() throws Exception {
    redrive.createQueue("bulk");
    java.util.List<NewMessage> batch = new java.util.ArrayList<>();
    for (int i = 0; i < 60; i++) {
      batch.add(NewMessage.builder("bulk", "t").payload("{}").build());
    }
    redrive.enqueueBatch(batch);
    redrive.completeAll(
        redrive.lease(LeaseRequest.of("bulk", "w", 100)).leased().stream()
            .map(LeasedMessage::token)
            .toList());

    UiClient ada = UiClient.signedIn(server, ADMIN);
    String first = ada.get("/ui/queues/bulk/messages?state=completed").body();
    java.util.regex.Matcher next =
        java.util.regex.Pattern.compile("id=\"next-page\" href=\"([^\"]+)\"").matcher(first);
    assertThat(next.find()).as("a next page of completed messages").isTrue();
    HttpResponse<String> second = ada.get(next.group(1).replace("&amp;", "&"));
    assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
    assertThat(second.body()).contains("id=\"previous-page\"").doesNotContain("id=\"next-page\"");
  }
}
