package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.queue.DeadLetter;
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
 * The queue page's payload-field filter over HTTP with keys: it lists only the matching messages
 * and keeps the filter on the next page; a bad path, a value without a field and a NUL character
 * answer a 400 page naming the field; a queue outside the key's scope answers as missing; a
 * dead-letter copy's row names its source queue only when the key may see it.
 */
class DashboardPayloadFilterHttpTest {
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
            new ApiKey("vic", SCOPED, Role.VIEWER, List.of("in.*")));
    redrive = server.redrive();
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  private static String put(String queue, String payload) {
    return redrive.enqueue(NewMessage.builder(queue, "ship").payload(payload).build()).id();
  }

  @Test
  void theFilter_listsOnlyMatches_andKeepsItOnTheNextPage() throws Exception {
    redrive.createQueue("in.orders");
    List<String> matches = new java.util.ArrayList<>();
    for (int i = 0; i < 55; i++) {
      matches.add(put("in.orders", "{\"order\":{\"id\":42},\"n\":" + i + "}"));
      put("in.orders", "{\"order\":{\"id\":7},\"n\":" + i + "}");
    }
    String text = put("in.orders", "order.id=42 but not JSON");
    UiClient ada = UiClient.signedIn(server, ADMIN);

    assertThat(ada.get("/ui/queues/in.orders").body())
        .contains("id=\"payload-filter\"")
        .contains("action=\"/ui/queues/in.orders/messages\"");
    HttpResponse<String> first = ada.get("/ui/queues/in.orders/messages?field=order.id&value=42");
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body())
        .contains("data-id=\"" + matches.get(0) + "\"")
        .contains("data-id=\"" + matches.get(49) + "\"")
        .doesNotContain("data-id=\"" + matches.get(50) + "\"")
        .doesNotContain("data-id=\"" + text + "\"")
        .contains("value=\"order.id\"")
        .contains("order.id = 42");
    assertThat(first.body().split("data-id=\"", -1)).hasSize(51);
    String next =
        first
            .body()
            .replaceAll("(?s).*id=\"next-page\" href=\"([^\"]+)\".*", "$1")
            .replace("&amp;", "&");
    assertThat(next).contains("field=order.id").contains("value=42");
    String second = ada.get(next).body();
    assertThat(second).contains("data-id=\"" + matches.get(54) + "\"");
    assertThat(second.split("data-id=\"", -1)).hasSize(6);

    HttpResponse<String> blank = ada.get("/ui/queues/in.orders/messages?field=&value=");
    assertThat(blank.statusCode()).as("an empty form is no filter").isEqualTo(200);
    assertThat(blank.body().split("data-id=\"", -1)).hasSize(51);
  }

  @Test
  void badInput_is400NamingTheField_andAnotherQueueIsMissing() throws Exception {
    redrive.createQueue("in.bad");
    redrive.createQueue("out.bad");
    UiClient vic = UiClient.signedIn(server, SCOPED);
    String list = "/ui/queues/in.bad/messages";
    for (String query :
        List.of("?field=order..id&value=1", "?field=order%20id&value=1", "?value=42")) {
      HttpResponse<String> r = vic.get(list + query);
      assertThat(r.statusCode()).as(query).isEqualTo(400);
      assertThat(r.body()).as(query).contains("field: ");
    }
    HttpResponse<String> nul = vic.get(list + "?field=order.id&value=4%002");
    assertThat(nul.statusCode()).isEqualTo(400);
    assertThat(nul.body()).contains("value: must not contain the NUL character");
    assertThat(vic.get(list + "?field=order%00.id&value=1").statusCode()).isEqualTo(400);
    assertThat(vic.get("/ui/queues/out.bad/messages?field=order.id&value=42").statusCode())
        .isEqualTo(404);
  }

  @Test
  void aCopysRow_showsItsSourceAttempts_namingTheSourceOnlyInScope() throws Exception {
    redrive.createQueue("in.copies");
    redrive.createQueue(
        "out.origin",
        QueuePolicy.defaults().withMaxAttempts(2).withDeadLetter(DeadLetter.moveTo("in.copies")));
    put("out.origin", "{}");
    LeasedMessage m = redrive.lease(LeaseRequest.of("out.origin", "w", 1)).leased().get(0);
    redrive.fail(
        FailRequest.of(m.token(), FailureReason.VALIDATION_FAILURE, "bad").withRetryable(false));

    assertThat(UiClient.signedIn(server, ADMIN).get("/ui/queues/in.copies/messages").body())
        .contains("<td class=\"num attempts\">0 / 5 · 1 in out.origin</td>");
    assertThat(UiClient.signedIn(server, SCOPED).get("/ui/queues/in.copies/messages").body())
        .contains("<td class=\"num attempts\">0 / 5 · 1 in its source queue</td>")
        .doesNotContain("out.origin");
  }
}
