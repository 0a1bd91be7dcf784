package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.WaitingType;
import io.redrive.message.NewMessage;
import io.redrive.testkit.ControllableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unserved-types banner (docs/dashboard.md): a ready type no live worker takes shows on its
 * queue's page (read from the store) and on the overview (this node's last check), and leaves both
 * once a worker for it starts and drains it. The message is enqueued by an engine whose clock is
 * ten minutes behind, so it has waited past the 5 min threshold by the server's system clock.
 */
class UnservedTypesDashboardTest {
  @TempDir static Path dir;
  private static TestServers.Keyed server;

  @BeforeAll
  static void start() {
    server = TestServers.keyed(dir);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void unservedType_bannerOnQueueAndOverview_goneOnceAWorkerForItDrainsIt() throws Exception {
    String q = TestServers.unique("thumbs");
    Redrive past =
        server.engine(new ControllableClock(Instant.now().minus(Duration.ofMinutes(10))));
    past.createQueue(q);
    past.enqueue(NewMessage.builder(q, "thumb").payload("{}").build());
    Redrive redrive = server.redrive();
    assertThat(redrive.checkUnservedTypes()).extracting(WaitingType::type).contains("thumb");
    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);

    String page = ada.get("/ui/queues/" + q).body();
    assertThat(page).contains("id=\"unserved-types\"").contains(">thumb</code>");
    assertThat(ada.get("/ui").body()).contains("id=\"unserved-types\"").contains(q);

    LeasedMessage m =
        redrive.lease(LeaseRequest.of(q, "thumbs-1", 1).withTypes(Set.of("thumb"))).leased().get(0);
    redrive.complete(m.token());
    assertThat(redrive.checkUnservedTypes()).extracting(WaitingType::queue).doesNotContain(q);
    assertThat(ada.get("/ui/queues/" + q).body()).doesNotContain("id=\"unserved-types\"");
  }
}
