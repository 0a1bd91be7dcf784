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
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's lineage over HTTP with keys: a moved message's old id leads to its copy, and the
 * search finds it, for a key that may see both queues; a key limited to the copy's queue finds
 * nothing from another queue's id, as the API's wall.
 */
class DashboardLineageHttpTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";
  private static final String SCOPED = "scoped-secret-0123456789abcdef";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static Redrive redrive;

  @BeforeAll
  static void start() {
    server =
        TestServers.sqliteWithKeys(
            dir,
            new ApiKey("ada", ADMIN, Role.ADMIN, List.of()),
            new ApiKey("sam", SCOPED, Role.ADMIN, List.of("in.*")));
    redrive = server.redrive();
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  private static UiClient signedIn(String key) throws Exception {
    return UiClient.signedIn(server, key);
  }

  /** A moved message's old id leads to its copy, within the key's queues only (the API's wall). */
  @Test
  void movedMessage_oldIdLeadsToItsCopy_butNotAcrossTheScopeWall() throws Exception {
    redrive.createQueue("in.dlq4");
    redrive.createQueue(
        "out.src4",
        QueuePolicy.defaults()
            .withMaxAttempts(1)
            .withDeadLetter(io.redrive.queue.DeadLetter.moveTo("in.dlq4")));
    redrive.createQueue(
        "in.src4",
        QueuePolicy.defaults()
            .withMaxAttempts(1)
            .withDeadLetter(io.redrive.queue.DeadLetter.moveTo("in.dlq4")));
    String hidden = killOne("out.src4");
    String visible = killOne("in.src4");

    UiClient ada = signedIn(ADMIN);
    HttpResponse<String> led = ada.get("/ui/messages/" + hidden);
    assertThat(led.statusCode()).isEqualTo(303);
    assertThat(led.headers().firstValue("Location").orElseThrow()).contains("movedFrom=" + hidden);
    assertThat(ada.get("/ui/search?q=" + visible).statusCode()).isEqualTo(303);

    UiClient sam = signedIn(SCOPED);
    assertThat(sam.get("/ui/messages/" + hidden).statusCode())
        .as("another queue's id: not found, as if it never existed")
        .isEqualTo(404);
    HttpResponse<String> none = sam.get("/ui/search?q=" + hidden);
    assertThat(none.statusCode()).isEqualTo(200);
    assertThat(none.body()).contains("No message matches").doesNotContain("in.dlq4");
    HttpResponse<String> mine = sam.get("/ui/messages/" + visible);
    assertThat(mine.statusCode()).isEqualTo(303);
    HttpResponse<String> page = sam.get(mine.headers().firstValue("Location").orElseThrow());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("id=\"lineage\"").contains(visible).doesNotContain(hidden);
  }

  private static String killOne(String queue) {
    String id = redrive.enqueue(NewMessage.builder(queue, "t").payload("{}").build()).id();
    LeasedMessage m = redrive.lease(LeaseRequest.of(queue, "w", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(m.token(), FailureReason.VALIDATION_FAILURE, "bad").withRetryable(false));
    return id;
  }
}
