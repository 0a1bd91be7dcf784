package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.message.NewMessage;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.Rate;
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

/** The queue page shows a queue's flow limits and how many limit keys are at their cap now. */
class FlowLimitDashboardTest {
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
  void queuePage_showsLimits_andKeysAtTheirCap() throws Exception {
    redrive.createQueue(
        "tenants",
        QueuePolicy.defaults()
            .withLimits(new FlowLimits(null, 1, Rate.of(100, Duration.ofMinutes(1)), null)));
    redrive.createQueue("plain");
    for (String key : List.of("a", "a", "b")) {
      redrive.enqueue(NewMessage.builder("tenants", "t").payload("{}").limitKey(key).build());
    }
    assertThat(redrive.lease(LeaseRequest.of("tenants", "w", 10)).leased()).hasSize(2);

    UiClient ada = UiClient.signedIn(server, ADMIN);
    assertThat(ada.get("/ui/queues/tenants").body())
        .contains("one running per key (singleton), 100/1m leases")
        .contains("2 running, 2 keys at their cap, 0 keys slowed down");
    assertThat(ada.get("/ui/queues/plain").body()).contains("id=\"flow-limits\">none<");
  }
}
