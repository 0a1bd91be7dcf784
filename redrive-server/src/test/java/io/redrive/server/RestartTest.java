package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.store.Store;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Stops the server in the middle of a producer and consumers working over HTTP, starts a new one on
 * the same database, and checks that every message the producer sent ends completed exactly once or
 * dead: nothing lost, nothing done twice.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class RestartTest {
  private static final int TOTAL = 300;
  private static final int BATCH = 10;

  @Parameter StoreKind kind;

  private volatile boolean serverDown;

  @Test
  void stopMidLoad_restartOnSameData_nothingLostNothingTwice() throws Exception {
    StoreKind.TestDb db = kind.newDatabase();
    int port = freePort();
    Store store = db.open();
    RedriveServer server =
        RedriveServer.start(TestServers.config().withPort(port), TestServers.ALLOW_ALL, store);
    HttpApiClient api = new HttpApiClient(server.baseUrl());
    String q = "restart";
    assertThat(api.post("/v1/queues", "{\"name\":\"restart\",\"leaseTimeout\":\"2s\"}").status())
        .isEqualTo(201);

    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    Map<String, AtomicInteger> completions = new ConcurrentHashMap<>();
    Set<String> ambiguous = ConcurrentHashMap.newKeySet();
    AtomicBoolean producing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    pool.submit(
        () -> {
          for (int start = 0; start < TOTAL; start += BATCH) {
            List<Object> messages = new ArrayList<>();
            for (int i = start; i < start + BATCH; i++) {
              String type = i % 25 == 0 ? "bad" : "good";
              messages.add(Map.of("type", type, "payload", Map.of("n", i), "dedupeKey", "m-" + i));
            }
            String body = HttpApiClient.json(Map.of("messages", messages));
            Response r = retrying(() -> api.post("/v1/queues/" + q + "/messages", body));
            assertThat(r.status()).as(r.toString()).isEqualTo(201);
            r.get("results").forEach(n -> acknowledged.add(n.get("id").asText()));
            ConsumeApiTest.sleep(5);
          }
          producing.set(false);
          return null;
        });
    for (int w = 0; w < 2; w++) {
      String worker = "w" + w;
      pool.submit(
          () -> {
            while (producing.get() || remaining(api, q) > 0) {
              Response leased =
                  retrying(
                      () ->
                          api.post(
                              "/v1/queues/" + q + "/lease",
                              "{\"worker\":\"" + worker + "\",\"max\":5,\"wait\":\"300ms\"}"));
              if (leased.status() != 200) {
                continue;
              }
              for (JsonNode m : leased.get("messages")) {
                String token = m.get("token").asText();
                String id = m.get("id").asText();
                boolean bad = m.get("type").asText().equals("bad");
                Response settled =
                    retrying(
                        () ->
                            bad
                                ? api.post(
                                    "/v1/leases/" + token + "/fail",
                                    "{\"reason\":\"VALIDATION_FAILURE\"}")
                                : api.post("/v1/leases/" + token + "/complete"));
                if (!bad && settled.status() == 200) {
                  completions.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
                } else if (!bad
                    && settled.code() != null
                    && settled.code().equals("LEASE_NOT_FOUND")) {
                  ambiguous.add(id);
                }
              }
            }
            return null;
          });
    }

    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (acknowledged.size() < TOTAL / 3 && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    serverDown = true;
    server.stop();
    store.close();
    Thread.sleep(200);
    Store reopened = db.open();
    RedriveServer second =
        RedriveServer.start(TestServers.config().withPort(port), TestServers.ALLOW_ALL, reopened);
    serverDown = false;
    try {
      pool.shutdown();
      assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).as("load finished").isTrue();

      assertThat(acknowledged).hasSize(TOTAL);
      List<String> dead = new ArrayList<>();
      new HttpApiClient(second.baseUrl())
          .get("/v1/queues/" + q + "/messages?state=dead&limit=1000")
          .get("messages")
          .forEach(m -> dead.add(m.get("id").asText()));
      assertThat(dead).hasSize(TOTAL / 25);
      assertThat(completions.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
      Set<String> done = new java.util.HashSet<>(completions.keySet());
      done.addAll(ambiguous);
      done.addAll(dead);
      assertThat(done).containsExactlyInAnyOrderElementsOf(acknowledged);
      JsonNode stats = new HttpApiClient(second.baseUrl()).get("/v1/queues/" + q + "/stats").json();
      assertThat(stats.get("total").asInt()).isEqualTo(TOTAL / 25);
    } finally {
      pool.shutdownNow();
      second.stop();
      reopened.close();
      db.drop().run();
    }
  }

  private long remaining(HttpApiClient api, String q) {
    Response r = retrying(() -> api.get("/v1/queues/" + q + "/stats"));
    JsonNode s = r.json();
    return s.get("ready").asLong()
        + s.get("scheduled").asLong()
        + s.get("leased").asLong()
        + s.get("leaseExpired").asLong();
  }

  /** Repeats a call while the server is down (connection refused), as a real client would. */
  private Response retrying(java.util.function.Supplier<Response> call) {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        Response r = call.get();
        if (r.status() != 503) {
          return r;
        }
      } catch (UncheckedIOException e) {
        if (System.nanoTime() > until) {
          throw e;
        }
      }
      ConsumeApiTest.sleep(serverDown ? 50 : 10);
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
