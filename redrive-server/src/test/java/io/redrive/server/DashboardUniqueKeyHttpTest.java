package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
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

/** The message page shows the unique key while the message holds it, escaped. */
class DashboardUniqueKeyHttpTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static Redrive redrive;

  @BeforeAll
  static void start() {
    server = TestServers.sqliteWithKeys(dir, new ApiKey("ada", ADMIN, Role.ADMIN, List.of()));
    redrive = server.redrive();
    redrive.createQueue("reports");
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @Test
  void messagePage_showsTheUniqueKeyWhileHeld_notOnceLeased() throws Exception {
    String id =
        redrive
            .enqueue(NewMessage.builder("reports", "rebuild").uniqueKey("report-<7>").build())
            .id();
    UiClient ui = UiClient.signedIn(server, ADMIN);

    HttpResponse<String> waiting = ui.get("/ui/messages/" + id);
    redrive.lease(LeaseRequest.of("reports", "w1", 1));
    HttpResponse<String> running = ui.get("/ui/messages/" + id);

    assertThat(waiting.statusCode()).isEqualTo(200);
    assertThat(waiting.body())
        .contains("<th>Unique key</th>")
        .contains("id=\"m-unique-key\"")
        .contains("report-&lt;7&gt;");
    assertThat(running.body()).doesNotContain("m-unique-key");
  }
}
