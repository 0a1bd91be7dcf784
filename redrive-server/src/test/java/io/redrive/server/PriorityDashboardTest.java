package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.queue.PriorityPolicy;
import io.redrive.queue.QueuePolicy;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard shows priorities: a queue's default and aging, a message's priority. */
class PriorityDashboardTest {
  @TempDir static Path dir;
  private static TestServers.Keyed server;
  private static Redrive redrive;

  @BeforeAll
  static void start() {
    server = TestServers.keyed(dir);
    redrive = server.redrive();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void queueAndMessagePages_showThePriorities() throws Exception {
    redrive.createQueue(
        "urgent",
        QueuePolicy.defaults().withPriority(new PriorityPolicy(6, Duration.ofMinutes(2))));
    String id = redrive.enqueue(NewMessage.builder("urgent", "page").priority(8).build()).id();

    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    assertThat(ada.get("/ui/queues/urgent").body())
        .contains("id=\"priority\"")
        .contains("default 6")
        .contains("2m");
    assertThat(ada.get("/ui/messages/" + id).body()).contains("<td id=\"m-priority\">8</td>");
  }
}
