package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.server.config.StoreSettings;
import io.redrive.store.Store;
import io.redrive.testkit.TestPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A PostgreSQL outage under load: a server whose store reaches PostgreSQL through a {@link
 * TcpProxy}; producers, consumers and a readiness probe run while the proxy cuts every connection
 * and refuses new ones, then accepts again. While down every answer is 503 (STORE_UNAVAILABLE with
 * Retry-After) within its budget; afterwards the server recovers by itself and no acknowledged
 * message is lost. Prints the counts it saw.
 */
class OutageTest {
  private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^:/]+):(\\d+)(/.*)");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TcpProxy proxy;
  private RedriveServer server;
  private Store store;
  private String schema;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();

  /** One answer: what was asked, when (ms since the cut), how long it took, and what came back. */
  record Answer(
      String what, long startMs, long millis, int status, String code, String retryAfter) {}

  private final List<Answer> answers = new CopyOnWriteArrayList<>();
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private volatile long cutAt = Long.MAX_VALUE;
  private volatile long restoredAt = Long.MAX_VALUE;

  @AfterEach
  void tearDown() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(20_000);
    }
    if (server != null) {
      server.stop();
    }
    if (store != null) {
      store.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    if (schema != null) {
      TestPostgres.dropSchema(schema);
    }
  }

  @Test
  void postgresOutage_answers503FastWhileDown_recoversAlone_losesNothing() throws Exception {
    Matcher m = URL.matcher(TestPostgres.adminUrl());
    assertThat(m.matches()).as(TestPostgres.adminUrl()).isTrue();
    proxy = new TcpProxy(m.group(1), Integer.parseInt(m.group(2)));
    schema = TestPostgres.createSchema("outage");
    String viaProxy = "jdbc:postgresql://127.0.0.1:" + proxy.port() + m.group(3);
    store = StoreSettings.postgres(viaProxy, null, null, schema).open();
    server = RedriveServer.start(TestServers.config(), TestServers.ALLOW_ALL, store);
    String base = server.baseUrl();
    assertThat(call(base, "POST", "/v1/queues", "{\"name\":\"jobs\"}", "create").status())
        .isEqualTo(201);

    AtomicInteger next = new AtomicInteger();
    for (int p = 0; p < 2; p++) {
      start(
          () -> {
            String payload = "m" + next.incrementAndGet();
            Answer a =
                call(
                    base,
                    "POST",
                    "/v1/queues/jobs/messages",
                    "{\"messages\":[{\"type\":\"t\",\"payload\":\"" + payload + "\"}]}",
                    "enqueue");
            if (a.status() == 201) {
              acknowledged.add(payload);
            }
          });
    }
    for (String wait : List.of("0s", "1s")) {
      start(() -> consume(base, wait));
    }
    start(() -> call(base, "GET", "/ready", null, "ready"));

    await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= 20);
    cutAt = System.nanoTime();
    proxy.cut();
    // Down until every kind of call has been answered 503 a few times.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                List.of("enqueue", "lease 0s", "lease 1s", "ready").stream()
                    .allMatch(
                        w -> downAnswers(w).stream().filter(a -> a.status() == 503).count() >= 3));
    restoredAt = System.nanoTime();
    proxy.restore();

    // Recovery without operator action: ready again, and enqueues succeed.
    int before = acknowledged.size();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> acknowledged.size() >= before + 20 && readyNow(base));
    running.set(false);
    for (Thread t : threads) {
      t.join(20_000);
    }
    threads.clear();
    // Drain: every acknowledged message is still there (leased once at least, or leasable).
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              leaseOnce(base, "1s", "drain");
              return seen.containsAll(acknowledged);
            });

    List<Answer> down = new ArrayList<>();
    for (String w : List.of("enqueue", "lease 0s", "lease 1s", "ready")) {
      down.addAll(downAnswers(w));
    }
    Map<String, Long> perCode = new TreeMap<>();
    Map<String, Long> slowest = new TreeMap<>();
    for (Answer a : down) {
      perCode.merge(a.what() + " " + a.status() + " " + a.code(), 1L, Long::sum);
      slowest.merge(a.what(), a.millis(), Math::max);
    }
    Set<String> lost = new java.util.TreeSet<>(acknowledged);
    lost.removeAll(seen);
    Set<String> unacknowledgedButStored = new java.util.TreeSet<>(seen);
    unacknowledgedButStored.removeAll(acknowledged);
    System.out.printf(
        "OUTAGE down for %d ms; answers while down: %s; slowest while down (ms): %s;"
            + " acknowledged %d, lost %d, stored without acknowledgement %d%n",
        (restoredAt - cutAt) / 1_000_000,
        perCode,
        slowest,
        acknowledged.size(),
        lost.size(),
        unacknowledgedButStored.size());

    assertThat(lost).as("acknowledged but lost").isEmpty();
    for (Answer a : down) {
      assertThat(a.status()).as(a.toString()).isEqualTo(503);
      if (!a.what().equals("ready")) {
        assertThat(a.code()).as(a.toString()).isEqualTo("STORE_UNAVAILABLE");
        assertThat(a.retryAfter()).as(a.toString()).isNotNull();
      }
    }
    // Generous bounds (the budgets are wait + 2 s connection timeout, and 1 s for /ready).
    assertThat(slowest.get("ready")).isLessThan(4_000L);
    assertThat(slowest.get("enqueue")).isLessThan(7_000L);
    assertThat(slowest.get("lease 0s")).isLessThan(7_000L);
    assertThat(slowest.get("lease 1s")).isLessThan(8_000L);
  }

  /** Answers to calls that started after the cut and ended before the restore. */
  private List<Answer> downAnswers(String what) {
    long downMs =
        (restoredAt == Long.MAX_VALUE ? Long.MAX_VALUE : (restoredAt - cutAt) / 1_000_000);
    List<Answer> out = new ArrayList<>();
    for (Answer a : answers) {
      if (a.what().equals(what) && a.startMs() >= 0 && a.startMs() + a.millis() <= downMs) {
        out.add(a);
      }
    }
    return out;
  }

  private void consume(String base, String wait) {
    leaseOnce(base, wait, "lease " + wait);
  }

  private void leaseOnce(String base, String wait, String what) {
    Answer a =
        call(
            base,
            "POST",
            "/v1/queues/jobs/lease",
            "{\"worker\":\"o\",\"max\":10,\"leaseTimeout\":\"2s\",\"wait\":\"" + wait + "\"}",
            what);
    if (a.status() != 200 || lastBody.get() == null) {
      return;
    }
    for (JsonNode msg : lastBody.get().get("messages")) {
      seen.add(msg.get("payload").asText());
      call(base, "POST", "/v1/leases/" + msg.get("token").asText() + "/complete", null, "complete");
    }
  }

  private final ThreadLocal<JsonNode> lastBody = new ThreadLocal<>();

  private boolean readyNow(String base) {
    return call(base, "GET", "/ready", null, "ready-check").status() == 200;
  }

  private Answer call(String base, String method, String path, String body, String what) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
    if (body == null) {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    long start = System.nanoTime();
    long startMs = cutAt == Long.MAX_VALUE ? -1 : (start - cutAt) / 1_000_000;
    Answer a;
    try {
      HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json = null;
      try {
        json = HttpApiClient.JSON.readTree(r.body());
      } catch (IOException notJson) {
        // e.g. /metrics; not used here
      }
      lastBody.set(json);
      String code = json == null ? null : json.path("error").path("code").asText(null);
      a =
          new Answer(
              what,
              startMs,
              (System.nanoTime() - start) / 1_000_000,
              r.statusCode(),
              code,
              r.headers().firstValue("Retry-After").orElse(null));
    } catch (IOException e) {
      lastBody.set(null);
      a =
          new Answer(
              what, startMs, (System.nanoTime() - start) / 1_000_000, -1, e.toString(), null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      lastBody.set(null);
      a = new Answer(what, startMs, 0, -1, "interrupted", null);
    }
    answers.add(a);
    return a;
  }

  private void start(Runnable step) {
    Thread t =
        new Thread(
            () -> {
              while (running.get()) {
                step.run();
              }
            },
            "outage-load");
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }
}
