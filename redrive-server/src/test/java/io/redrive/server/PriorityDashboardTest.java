package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueuePolicy;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Role;
import io.redrive.server.config.StoreSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard shows priorities: a queue's default and aging, a message's priority. */
class PriorityDashboardTest {
  private static final String ADMIN = "admin-secret-0123456789abcdef";

  @TempDir static Path dir;
  private static RedriveServer server;
  private static Redrive redrive;

  @BeforeAll
  static void start() {
    server =
        TestServers.sqliteWithKeys(
            TestServers.config().withStore(StoreSettings.sqlite(dir)),
            new ApiKey("ada", ADMIN, Role.ADMIN, List.of()));
    redrive = server.redrive();
  }

  @AfterAll
  static void stop() {
    server.stop();
  }

  @Test
  void queueAndMessagePages_showThePriorities() throws Exception {
    redrive.createQueue(
        "urgent",
        QueuePolicy.defaults().withPriority(new PriorityPolicy(6, Duration.ofMinutes(2))));
    String id = redrive.enqueue(NewMessage.builder("urgent", "page").priority(8).build()).id();

    UiClient ada = UiClient.signedIn(server, ADMIN);
    assertThat(ada.get("/ui/queues/urgent").body())
        .contains("id=\"priority\"")
        .contains("default 6")
        .contains("2m");
    assertThat(ada.get("/ui/messages/" + id).body()).contains("<td id=\"m-priority\">8</td>");
  }
}
