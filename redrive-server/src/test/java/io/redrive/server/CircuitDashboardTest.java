package io.redrive.server;

import static io.redrive.server.UiClient.form;
import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.queue.CircuitPolicy;
import io.redrive.queue.CircuitState;
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
 * The queue page's circuit banner (docs/dashboard.md, "Circuit breakers"): an open circuit is named
 * with its next probe; an admin closes it with the form token, a viewer sees no button and a forged
 * close is refused.
 */
class CircuitDashboardTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";
  private static final String VIEWER = "viewer-secret-0123456789abcdef";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static Redrive redrive;

  @BeforeAll
  static void start() {
    server =
        TestServers.sqliteWithKeys(
            dir,
            new ApiKey("ada", ADMIN, Role.ADMIN, List.of()),
            new ApiKey("vic", VIEWER, Role.VIEWER, List.of()));
    redrive = server.redrive();
    redrive.createQueue("mail", QueuePolicy.defaults().withCircuit(CircuitPolicy.defaults()));
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @Test
  void openCircuit_isABanner_anAdminClosesIt_aViewerCannot() throws Exception {
    redrive.setCircuit("mail", "smtp", true);

    UiClient viewer = UiClient.signedIn(server, VIEWER);
    String viewed = viewer.get("/ui/queues/mail").body();
    assertThat(viewed).contains("id=\"circuit-smtp\"").contains("opened by hand, no probes");
    assertThat(viewed).contains("id=\"circuit-policy\"").contains("5 failures within");
    assertThat(viewed).doesNotContain("/circuits/smtp/close");
    HttpResponse<String> forged =
        viewer.post("/ui/queues/mail/circuits/smtp/close", form("_csrf", UiClient.csrfOf(viewed)));
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(redrive.circuits("mail").get(0).state()).isEqualTo(CircuitState.OPEN);

    UiClient admin = UiClient.signedIn(server, ADMIN);
    String page = admin.get("/ui/queues/mail").body();
    assertThat(page).contains("/ui/queues/mail/circuits/smtp/close");
    HttpResponse<String> noToken = admin.post("/ui/queues/mail/circuits/smtp/close", form());
    assertThat(noToken.statusCode()).isEqualTo(403);
    HttpResponse<String> closed =
        admin.post("/ui/queues/mail/circuits/smtp/close", form("_csrf", UiClient.csrfOf(page)));
    assertThat(closed.statusCode()).isEqualTo(303);
    assertThat(redrive.circuits("mail").get(0).state()).isEqualTo(CircuitState.CLOSED);
    assertThat(admin.get("/ui/queues/mail").body()).doesNotContain("id=\"circuit-smtp\"");
  }
}
