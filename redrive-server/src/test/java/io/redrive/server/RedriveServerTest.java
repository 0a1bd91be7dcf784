package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.auth.Role;
import io.redrive.server.config.StoreSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, stopping and securing a server (store-independent, run on SQLite). */
class RedriveServerTest {
  @TempDir Path dir;

  @Test
  void start_withoutKeysOnNonLoopback_refused() {
    assertThatThrownBy(
            () ->
                RedriveServer.start(
                    TestServers.config().withBind("0.0.0.0").withStore(StoreSettings.sqlite(dir)),
                    TestServers.ALLOW_ALL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bind")
        .hasMessageContaining("without API keys");
    assertThat(Files.exists(dir.resolve("redrive.db"))).isFalse();
  }

  @Test
  void start_onATakenPort_failsNamingThePort_beforeOpeningTheStore() {
    RedriveServer first =
        RedriveServer.start(
            TestServers.config().withStore(StoreSettings.sqlite(dir.resolve("one"))),
            TestServers.ALLOW_ALL);
    try {
      int port = first.port();
      Path second = dir.resolve("two");

      assertThatThrownBy(
              () ->
                  RedriveServer.start(
                      TestServers.config().withPort(port).withStore(StoreSettings.sqlite(second)),
                      TestServers.ALLOW_ALL))
          .isInstanceOf(PortInUseException.class)
          .hasMessage("port " + port + " is in use on 127.0.0.1 (another Redrive server?)");
      assertThat(second).doesNotExist();
    } finally {
      first.stop();
    }
  }

  @Test
  void start_fromConfig_opensSqliteInDataDir_andStopIsIdempotent() {
    RedriveServer server =
        RedriveServer.start(
            TestServers.config().withStore(StoreSettings.sqlite(dir.resolve("data"))),
            TestServers.ALLOW_ALL);
    try {
      assertThat(server.port()).isPositive();
      assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
      HttpApiClient api = new HttpApiClient(server.baseUrl());
      assertThat(api.post("/v1/queues", "{\"name\":\"a\"}").status()).isEqualTo(201);
      assertThat(Files.exists(dir.resolve("data").resolve("redrive.db"))).isTrue();
      assertThat(server.stopOnShutdown()).isSameAs(server);
    } finally {
      server.stop();
      server.stop();
    }
  }

  @Test
  void stop_returnsPendingLongPollPromptly() throws Exception {
    RedriveServer server =
        RedriveServer.start(
            TestServers.config().withStore(StoreSettings.sqlite(dir)), TestServers.ALLOW_ALL);
    HttpApiClient api = new HttpApiClient(server.baseUrl());
    api.post("/v1/queues", "{\"name\":\"idle\"}");
    CompletableFuture<Response> poll =
        CompletableFuture.supplyAsync(() -> api.post("/v1/queues/idle/lease", "{\"wait\":\"5s\"}"));
    ConsumeApiTest.sleep(400);
    long start = System.nanoTime();
    server.stop();
    Response r = poll.get(3, TimeUnit.SECONDS);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3_000);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.get("messages")).isEmpty();
  }

  @Test
  void keys_authenticateAuthorizeAndScopeQueues() {
    String admin = "admin-secret-0123456789";
    String orders = "orders-consumer-0123456789";
    String viewer = "viewer-secret-0123456789";
    KeyAuthorizer keys =
        new KeyAuthorizer(
            List.of(
                new ApiKey("admin", admin, Role.ADMIN, List.of()),
                new ApiKey("orders", orders, Role.CONSUMER, List.of("orders", "orders.*")),
                new ApiKey("viewer", viewer, Role.VIEWER, List.of())));
    RedriveServer server =
        RedriveServer.start(TestServers.config().withStore(StoreSettings.sqlite(dir)), keys);
    try {
      HttpApiClient anonymous = new HttpApiClient(server.baseUrl());
      HttpApiClient asAdmin = anonymous.withKey(admin);
      HttpApiClient asOrders = anonymous.withKey(orders);
      HttpApiClient asViewer = anonymous.withKey(viewer);
      ApiTestBase.assertError(anonymous.get("/v1/queues"), 401, "UNAUTHORIZED");
      ApiTestBase.assertError(
          anonymous.withKey("wrong-key-0123456789").get("/v1/queues"), 401, "UNAUTHORIZED");
      assertThat(anonymous.get("/health").status()).isEqualTo(200);
      assertThat(asAdmin.post("/v1/queues", "{\"name\":\"orders\"}").status()).isEqualTo(201);
      assertThat(asAdmin.post("/v1/queues", "{\"name\":\"billing\"}").status()).isEqualTo(201);
      ApiTestBase.assertError(asViewer.post("/v1/queues", "{\"name\":\"x\"}"), 403, "FORBIDDEN");
      ApiTestBase.assertError(
          asViewer.post("/v1/queues/orders/messages", "{\"messages\":[{\"type\":\"t\"}]}"),
          403,
          "FORBIDDEN");
      List<String> visible = new ArrayList<>();
      asOrders.get("/v1/queues").get("queues").forEach(n -> visible.add(n.get("name").asText()));
      assertThat(visible).containsExactly("orders");
      ApiTestBase.assertError(asOrders.post("/v1/queues/billing/lease"), 403, "FORBIDDEN");

      asAdmin.post("/v1/queues/billing/messages", "{\"messages\":[{\"type\":\"t\"}]}");
      JsonNode leased = asAdmin.post("/v1/queues/billing/lease").get("messages").get(0);
      String billingToken = leased.get("token").asText();
      // another queue's token answers as a missing lease: the scope is a wall
      ApiTestBase.assertError(
          asOrders.post("/v1/leases/" + billingToken + "/complete"), 404, "LEASE_NOT_FOUND");
      assertThat(asAdmin.post("/v1/leases/" + billingToken + "/complete").status()).isEqualTo(200);

      asAdmin.post("/v1/queues/orders/messages", "{\"messages\":[{\"type\":\"t\"}]}");
      JsonNode mine = asOrders.post("/v1/queues/orders/lease").get("messages").get(0);
      assertThat(asOrders.post("/v1/leases/" + mine.get("token").asText() + "/complete").status())
          .isEqualTo(200);
    } finally {
      server.stop();
    }
  }
}
