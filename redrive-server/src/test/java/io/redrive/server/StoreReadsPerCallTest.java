package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.store.Store;
import io.redrive.testkit.fault.InterceptedStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What one HTTP call asks of the store: a settle authorises on a narrow read of its message's queue
 * (never the message with its history), and an enqueue leaves the queue check to the store's own
 * enqueue. Counted on the {@link Store} interface, so the answer does not depend on the store.
 */
class StoreReadsPerCallTest {
  private static final Map<String, Integer> CALLS = new ConcurrentHashMap<>();
  private static Store real;
  private static RedriveServer server;
  private static HttpApiClient api;

  @BeforeAll
  static void start() {
    real = StoreKind.SQLITE.newDatabase().open();
    Store counted = InterceptedStore.of(real, method -> CALLS.merge(method, 1, Integer::sum));
    server = RedriveServer.start(TestServers.config(), TestServers.ALLOW_ALL, counted);
    api = new HttpApiClient(server.baseUrl());
    assertThat(api.post("/v1/queues", "{\"name\":\"q\"}").status()).isEqualTo(201);
  }

  @AfterAll
  static void stop() {
    server.stop();
    real.close();
  }

  @BeforeEach
  void forgetCalls() {
    CALLS.clear();
  }

  @Test
  void enqueue_leavesTheQueueCheckToTheStore() {
    Response r = api.post("/v1/queues/q/messages", "{\"messages\":[{\"type\":\"t\"}]}");

    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    assertThat(calls("findQueue")).isZero();
    assertThat(calls("enqueue")).isEqualTo(1);
  }

  @Test
  void enqueue_unknownQueue_isNotFoundInTheSameWords() {
    Response r = api.post("/v1/queues/nope-q/messages", "{\"messages\":[{\"type\":\"t\"}]}");

    assertThat(r.status()).as(r.toString()).isEqualTo(404);
    assertThat(r.code()).isEqualTo("QUEUE_NOT_FOUND");
    assertThat(r.json().path("error").path("message").asText())
        .isEqualTo("queue \"nope-q\" does not exist");
    assertThat(calls("findQueue")).isZero();
  }

  @Test
  void complete_readsOnlyTheMessagesQueue_alsoWhenRepeated() {
    String token = leaseOne();

    assertThat(api.post("/v1/leases/" + token + "/complete", null).status()).isEqualTo(200);
    assertOneNarrowRead();

    CALLS.clear();
    Response again = api.post("/v1/leases/" + token + "/complete", null);
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.get("repeated").asBoolean()).isTrue();
    assertOneNarrowRead();
  }

  @Test
  void fail_abandon_renew_eachReadOnlyTheMessagesQueue() {
    String token = leaseOne();
    assertThat(api.post("/v1/leases/" + token + "/renew", null).status()).isEqualTo(200);
    assertOneNarrowRead();

    CALLS.clear();
    Response failed = api.post("/v1/leases/" + token + "/fail", "{\"reason\":\"UNKNOWN\"}");
    assertThat(failed.status()).as(failed.toString()).isEqualTo(200);
    assertOneNarrowRead();

    String next = leaseOne();
    CALLS.clear();
    assertThat(api.post("/v1/leases/" + next + "/abandon", null).status()).isEqualTo(200);
    assertOneNarrowRead();
  }

  @Test
  void release_readsEachTokensQueueOnly() {
    String a = leaseOne();
    String b = leaseOne();
    CALLS.clear();

    Response r = api.post("/v1/leases/release", "{\"tokens\":[\"" + a + "\",\"" + b + "\"]}");

    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    assertThat(calls("findMessage")).isZero();
    assertThat(calls("findQueueOf")).isEqualTo(2);
  }

  @Test
  void settle_unknownMessage_isLeaseNotFoundAfterOneNarrowRead() {
    String missing = "00000000-0000-7000-8000-000000000000.0123456789abcdef0123456789abcdef";

    Response r = api.post("/v1/leases/" + missing + "/fail", "{\"reason\":\"UNKNOWN\"}");

    assertThat(r.status()).as(r.toString()).isEqualTo(404);
    assertThat(r.code()).isEqualTo("LEASE_NOT_FOUND");
    assertOneNarrowRead();
    assertThat(calls("settle")).isZero();
  }

  private static void assertOneNarrowRead() {
    assertThat(calls("findMessage")).as("message loads with history").isZero();
    assertThat(calls("findQueueOf")).as("queue-only lookups").isEqualTo(1);
  }

  private static int calls(String method) {
    return CALLS.getOrDefault(method, 0);
  }

  private static String leaseOne() {
    assertThat(api.post("/v1/queues/q/messages", "{\"messages\":[{\"type\":\"t\"}]}").status())
        .isEqualTo(201);
    Response r = api.post("/v1/queues/q/lease", "{\"worker\":\"w\",\"max\":1}");
    assertThat(r.status()).as(r.toString()).isEqualTo(200);
    List<JsonNode> leased = new ArrayList<>();
    r.get("messages").forEach(leased::add);
    assertThat(leased).hasSize(1);
    return leased.get(0).get("token").asText();
  }
}
