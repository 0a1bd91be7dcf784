package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.Redrive;
import io.redrive.lease.LeaseRequest;
import io.redrive.message.NewMessage;
import io.redrive.queue.FlowLimits;
import io.redrive.queue.QueuePolicy;
import io.redrive.queue.Rate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The queue page shows a queue's flow limits and how many limit keys are at their cap now. */
class FlowLimitDashboardTest {
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

    UiClient ada = server.signedIn(TestServers.ADMIN_KEY);
    assertThat(ada.get("/ui/queues/tenants").body())
        .contains("one running per key (singleton), 100/1m leases")
        .contains("2 running, 2 keys at their cap, 0 keys slowed down");
    assertThat(ada.get("/ui/queues/plain").body()).contains("id=\"flow-limits\">none<");
  }
}
