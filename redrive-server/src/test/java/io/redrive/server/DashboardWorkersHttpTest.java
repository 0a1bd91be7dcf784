package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
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
 * The workers page over HTTP with keys: a worker holding leases is listed with its queues (linked)
 * and types; a key limited to some queues sees only those queues' workers; with no lease held the
 * page says why it is empty; a worker's name is shown as text.
 */
class DashboardWorkersHttpTest {
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

  private static List<LeasedMessage> lease(String queue, String type, String worker, int n) {
    for (int i = 0; i < n; i++) {
      redrive.enqueue(NewMessage.builder(queue, type).payload("{}").build());
    }
    return redrive.lease(LeaseRequest.of(queue, worker, n)).leased();
  }

  @Test
  void workersHoldingLeases_areListed_withinTheKeysQueuesOnly() throws Exception {
    UiClient ada = UiClient.signedIn(server, ADMIN);
    HttpResponse<String> empty = ada.get("/ui/workers");
    assertThat(empty.statusCode()).isEqualTo(200);
    assertThat(empty.body())
        .contains("id=\"no-workers\"")
        .contains("Workers appear here while they hold leases")
        .contains("href=\"/ui/workers\" id=\"nav-workers\" class=\"on\"");

    redrive.createQueue("in.resize");
    redrive.createQueue("out.billing");
    lease("in.resize", "resize", "host-a", 2);
    lease("out.billing", "charge", "host-b", 1);
    List<LeasedMessage> both = lease("out.billing", "charge", "host-a", 1);
    lease("in.resize", "crop", "<b>host-c</b>", 1);

    HttpResponse<String> all = ada.get("/ui/workers");
    assertThat(all.statusCode()).isEqualTo(200);
    assertThat(all.body())
        .contains("data-worker=\"host-a\"")
        .contains("data-worker=\"host-b\"")
        .contains("href=\"/ui/queues/in.resize\"")
        .contains("href=\"/ui/queues/out.billing\"")
        .contains("resize (2)")
        .contains("&lt;b&gt;host-c&lt;/b&gt;")
        .doesNotContain("<b>host-c</b>")
        .doesNotContain("no-workers");
    assertThat(all.body()).as("host-a holds 3 leases in two queues").contains("held\">3<");

    UiClient vic = UiClient.signedIn(server, SCOPED);
    HttpResponse<String> scoped = vic.get("/ui/workers");
    assertThat(scoped.statusCode()).isEqualTo(200);
    assertThat(scoped.body())
        .contains("data-worker=\"host-a\"")
        .contains("href=\"/ui/queues/in.resize\"")
        .as("another queue's worker and queue stay behind the scope wall")
        .doesNotContain("host-b")
        .doesNotContain("out.billing")
        .doesNotContain("charge");
    assertThat(scoped.body()).as("host-a's leases in scope only").contains("held\">2<");

    redrive.complete(both.get(0).token());
    assertThat(ada.get("/ui/workers").body()).contains("held\">2<");
  }
}
