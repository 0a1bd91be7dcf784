package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redrive.server.HttpApiClient.Response;
import io.redrive.store.Store;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The server runs the deadline sweep on its own (real clock, short interval): a leased message past
 * its deadline dies as EXPIRED while its 30 s lease still runs and its holder gets LEASE_LOST, and
 * a message in a paused queue nobody leases from dies too.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class MaintenanceHttpTest {
  @Parameter StoreKind kind;

  private StoreKind.TestDb db;
  private Store store;
  private RedriveServer server;
  private HttpApiClient api;

  @BeforeEach
  void startServer() {
    db = kind.newDatabase();
    store = db.open();
    server =
        RedriveServer.start(
            TestServers.config().withMaintenanceInterval(Duration.ofMillis(50)),
            TestServers.ALLOW_ALL,
            store);
    api = new HttpApiClient(server.baseUrl());
  }

  @AfterEach
  void stopServer() {
    server.stop();
    store.close();
    db.drop().run();
  }

  private String enqueue(String queue) {
    Response r =
        api.post(
            "/v1/queues/" + queue + "/messages",
            HttpApiClient.json(Map.of("messages", List.of(Map.of("type", "t", "payload", 1)))));
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return r.get("results").get(0).get("id").asText();
  }

  private String state(String id) {
    Response r = api.get("/v1/messages/" + id);
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    return r.get("state").asText();
  }

  @Test
  void leasedPastDeadline_sweptWhileLeaseRuns_completeGetsLeaseLost() {
    Response created =
        api.post("/v1/queues", "{\"name\":\"q\",\"expireAfter\":\"1s\",\"leaseTimeout\":\"30s\"}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    String id = enqueue("q");
    Response leased = api.post("/v1/queues/q/lease", "{\"worker\":\"w\",\"max\":1}");
    String token = leased.get("messages").get(0).get("token").asText();

    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> state(id).equals("DEAD"));

    Response message = api.get("/v1/messages/" + id);
    assertThat(message.get("deadReason").asText()).isEqualTo("EXPIRED");
    Response complete = api.post("/v1/leases/" + token + "/complete", "{}");
    ApiTestBase.assertError(complete, 409, "LEASE_LOST");
  }

  @Test
  void readyInPausedQueue_sweptToDeadLetterQueue() {
    assertThat(api.post("/v1/queues", "{\"name\":\"q.dlq\"}").status()).isEqualTo(201);
    Response created =
        api.post(
            "/v1/queues",
            "{\"name\":\"q\",\"expireAfter\":\"200ms\",\"deadLetterQueue\":\"q.dlq\"}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    String id = enqueue("q");
    assertThat(api.post("/v1/queues/q/pause", "{}").status()).isEqualTo(200);

    await()
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> api.get("/v1/messages/" + id).status() == 404);

    Response dead = api.get("/v1/queues/q.dlq/messages");
    assertThat(dead.get("messages")).hasSize(1);
    assertThat(dead.get("messages").get(0).get("sourceId").asText()).isEqualTo(id);
    assertThat(dead.get("messages").get(0).get("deadReason").asText()).isEqualTo("EXPIRED");
  }
}
