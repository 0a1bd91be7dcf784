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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * and refuses new ones (or freezes them: open but silent), then accepts again. While down every
 * answer is 503 (STORE_UNAVAILABLE with Retry-After) within its budget; afterwards the server
 * recovers by itself and no acknowledged message is lost. Prints the counts it saw.
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

  /** One answer: what was asked, when (System.nanoTime), how long it took, and what came back. */
  record Answer(
      String what,
      long startNanos,
      long millis,
      int status,
      String code,
      String retryAfter,
      String message) {}

  /** The driver's, pool's and server's words that belong in the log, never in an answer. */
  private static final List<String> INTERNALS =
      List.of("SQLState", "jdbc:", "FATAL", "Hikari", "total=", "PSQL", "org.postgresql");

  /** A 503's message says what happened in a sentence and carries none of the store's words. */
  private static void assertNoInternals(Answer a) {
    assertThat(a.message()).as(a.toString()).isNotBlank();
    for (String internal : INTERNALS) {
      assertThat(a.message()).as(a.toString()).doesNotContain(internal);
    }
  }

  /** When {@code a} was asked, in ms since the cut (negative: before). */
  private long startMs(Answer a) {
    return (a.startNanos() - cutAt) / 1_000_000;
  }

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
    String base = startBehindProxy("outage");
    startLoad(base);
    Map<String, Long> slowest = outage(base, proxy::cut, proxy::restore, "OUTAGE");
    for (Answer a : downAnswers()) {
      assertThat(a.status()).as(a.toString()).isEqualTo(503);
      assertThat(a.retryAfter()).as(a.toString()).isNotNull();
      assertNoInternals(a);
      if (a.what().startsWith("lease") || a.what().equals("enqueue")) {
        // A lease, and an enqueue without a dedupe key, are one auto-commit statement: on a
        // connection that died under it, it may have committed, so the answer is COMMIT_UNKNOWN
        // (a lease's batch is given back). An enqueue with a key is a transaction: exact.
        assertThat(a.code()).as(a.toString()).isIn("STORE_UNAVAILABLE", "COMMIT_UNKNOWN");
      } else if (!a.what().equals("ready")) {
        assertThat(a.code()).as(a.toString()).isEqualTo("STORE_UNAVAILABLE");
        assertThat(a.retryAfter()).as(a.toString()).isNotNull();
      }
    }
    // Generous bounds (the budgets are wait + 2 s connection timeout, and 1 s for /ready).
    assertThat(slowest.get("ready")).isLessThan(4_000L);
    assertThat(slowest.get("enqueue")).isLessThan(7_000L);
    assertThat(slowest.get("enqueue keyed")).isLessThan(7_000L);
    assertThat(slowest.get("lease 0s")).isLessThan(7_000L);
    assertThat(slowest.get("lease 1s")).isLessThan(8_000L);
  }

  /**
   * A hung database (stopped, not dead): open connections stay open but nothing comes back, so only
   * the driver's socket timeout ends a statement already sent; without it those requests would
   * never be answered.
   */
  @Test
  void postgresFreeze_answers503WithinBudget_recoversAfterThaw_losesNothing() throws Exception {
    String base = startBehindProxy("freeze");
    startLoad(base);
    Map<String, Long> slowest =
        outage(base, () -> freezeWithAnEnqueueInFlight(base), proxy::thaw, "FREEZE");
    // The enqueue whose statement was under way when the database froze.
    Answer pinned = pinnedEnqueue.get();
    assertThat(pinned).isNotNull();
    assertThat(pinned.status()).as(pinned.toString()).isEqualTo(503);
    assertThat(pinned.code()).as(pinned.toString()).isIn("STORE_UNAVAILABLE", "COMMIT_UNKNOWN");
    assertThat(pinned.millis()).as(pinned.toString()).isLessThan(budgetOf("enqueue"));
    // Calls under way when it froze: the driver was waiting for an answer that never came.
    for (Answer a : inFlightAtCut()) {
      assertThat(a.status()).as(a.toString()).isIn(200, 201, 204, 503);
      assertThat(a.millis()).as(a.toString()).isLessThan(budgetOf(a.what()));
    }
    for (Answer a : downAnswers()) {
      assertThat(a.status()).as(a.toString()).isEqualTo(503);
      assertThat(a.retryAfter()).as(a.toString()).isNotNull();
      assertNoInternals(a);
      if (!a.what().equals("ready")) {
        // A COMMIT sent just before the freeze may have happened: then its outcome is unknown.
        assertThat(a.code()).as(a.toString()).isIn("STORE_UNAVAILABLE", "COMMIT_UNKNOWN");
        assertThat(a.retryAfter()).as(a.toString()).isNotNull();
      }
    }
    for (String kind : KINDS) {
      assertThat(slowest.get(kind)).as(kind).isLessThan(budgetOf(kind));
    }
  }

  private final java.util.concurrent.atomic.AtomicReference<Answer> pinnedEnqueue =
      new java.util.concurrent.atomic.AtomicReference<>();

  /**
   * Freezes the proxy while an enqueue's statement is surely under way: a lock held on a direct
   * connection stops it in the database, the proxy freezes, the lock goes, and the database's
   * answer is held by the proxy, so only the driver's socket timeout can end that request.
   */
  private void freezeWithAnEnqueueInFlight(String base) {
    try (Connection locker = DriverManager.getConnection(TestPostgres.adminUrl())) {
      locker.setAutoCommit(false);
      try (Statement s = locker.createStatement()) {
        s.execute("LOCK TABLE " + schema + ".redrive_queues IN ACCESS EXCLUSIVE MODE");
      }
      Thread pin =
          new Thread(
              () ->
                  pinnedEnqueue.set(
                      call(
                          base,
                          "POST",
                          "/v1/queues/jobs/messages",
                          "{\"messages\":[{\"type\":\"t\",\"payload\":\"pinned\"}]}",
                          "pinned")),
              "outage-pinned");
      pin.setDaemon(true);
      threads.add(pin);
      pin.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> waitingOnLock(locker) > 0);
      proxy.freeze();
      locker.rollback();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Sessions waiting for a lock in the test's schema. */
  private int waitingOnLock(Connection c) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND position(? in query) > 0")) {
      ps.setString(1, schema + ".");
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  /** Generous bounds: the budgets are wait + 5 s socket timeout, and 1 s for /ready. */
  private static long budgetOf(String kind) {
    long socket = StoreSettings.SOCKET_TIMEOUT.toMillis();
    return switch (kind) {
      case "ready" -> 4_000L;
      case "lease 1s" -> socket + 5_000L;
      default -> socket + 4_000L;
    };
  }

  /** Answers to calls of {@link #KINDS} that began before the cut and ended after it. */
  private List<Answer> inFlightAtCut() {
    List<Answer> out = new ArrayList<>();
    for (Answer a : answers) {
      if (KINDS.contains(a.what())
          && cutAt != Long.MAX_VALUE
          && startMs(a) < 0
          && startMs(a) + a.millis() > 0) {
        out.add(a);
      }
    }
    return out;
  }

  /** A server whose store reaches the test PostgreSQL through {@link #proxy}; its base url. */
  private String startBehindProxy(String prefix) {
    Matcher m = URL.matcher(TestPostgres.adminUrl());
    assertThat(m.matches()).as(TestPostgres.adminUrl()).isTrue();
    proxy = new TcpProxy(m.group(1), Integer.parseInt(m.group(2)));
    schema = TestPostgres.createSchema(prefix);
    String viaProxy = "jdbc:postgresql://127.0.0.1:" + proxy.port() + m.group(3);
    store = StoreSettings.postgres(viaProxy, null, null, schema).open();
    server = RedriveServer.start(TestServers.config(), TestServers.ALLOW_ALL, store);
    String base = server.baseUrl();
    assertThat(call(base, "POST", "/v1/queues", "{\"name\":\"jobs\"}", "create").status())
        .isEqualTo(201);
    return base;
  }

  /**
   * Two producers (one without dedupe keys, one with), a consumer with wait 0s and one with wait
   * 1s, and a readiness probe.
   */
  private void startLoad(String base) {
    AtomicInteger next = new AtomicInteger();
    for (String what : List.of("enqueue", "enqueue keyed")) {
      start(
          () -> {
            String payload = "m" + next.incrementAndGet();
            String key = what.equals("enqueue") ? "" : ",\"dedupeKey\":\"" + payload + "\"";
            Answer a =
                call(
                    base,
                    "POST",
                    "/v1/queues/jobs/messages",
                    "{\"messages\":[{\"type\":\"t\",\"payload\":\"" + payload + "\"" + key + "}]}",
                    what);
            if (a.status() == 201) {
              acknowledged.add(payload);
            }
          });
    }
    for (String wait : List.of("0s", "1s")) {
      start(() -> consume(base, wait));
    }
    start(() -> call(base, "GET", "/ready", null, "ready"));
  }

  /**
   * Begins the outage under load, ends it once every kind of call was answered 503 a few times,
   * waits for recovery without operator action, drains, checks nothing acknowledged was lost and
   * prints the counts; the slowest answer of each kind while down.
   */
  private Map<String, Long> outage(String base, Runnable begin, Runnable end, String label)
      throws InterruptedException {
    await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= 20);
    begin.run();
    cutAt = System.nanoTime();
    // Down until every kind of call has been answered 503 a few times.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                KINDS.stream()
                    .allMatch(
                        w -> downAnswers(w).stream().filter(a -> a.status() == 503).count() >= 3));
    restoredAt = System.nanoTime();
    end.run();

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

    Map<String, Long> perCode = new TreeMap<>();
    Map<String, Long> slowest = new TreeMap<>();
    for (Answer a : downAnswers()) {
      perCode.merge(a.what() + " " + a.status() + " " + a.code(), 1L, Long::sum);
      slowest.merge(a.what(), a.millis(), Math::max);
    }
    Set<String> lost = new java.util.TreeSet<>(acknowledged);
    lost.removeAll(seen);
    Set<String> unacknowledgedButStored = new java.util.TreeSet<>(seen);
    unacknowledgedButStored.removeAll(acknowledged);
    Map<String, Long> inFlight = new TreeMap<>();
    for (Answer a : inFlightAtCut()) {
      inFlight.merge(
          a.what() + " " + a.status() + " " + a.code() + " " + a.millis() + "ms", 1L, Long::sum);
    }
    System.out.printf("%s in flight at the cut: %s%n", label, inFlight);
    System.out.printf(
        "%s down for %d ms; answers while down: %s; slowest while down (ms): %s;"
            + " acknowledged %d, lost %d, stored without acknowledgement %d%n",
        label,
        (restoredAt - cutAt) / 1_000_000,
        perCode,
        slowest,
        acknowledged.size(),
        lost.size(),
        unacknowledgedButStored.size());
    assertThat(lost).as("acknowledged but lost").isEmpty();
    return slowest;
  }

  private static final List<String> KINDS =
      List.of("enqueue", "enqueue keyed", "lease 0s", "lease 1s", "ready");

  private List<Answer> downAnswers() {
    List<Answer> down = new ArrayList<>();
    for (String w : KINDS) {
      down.addAll(downAnswers(w));
    }
    return down;
  }

  /** Answers to calls that started after the cut and ended before the restore. */
  private List<Answer> downAnswers(String what) {
    long downMs =
        (restoredAt == Long.MAX_VALUE ? Long.MAX_VALUE : (restoredAt - cutAt) / 1_000_000);
    List<Answer> out = new ArrayList<>();
    for (Answer a : answers) {
      if (a.what().equals(what)
          && cutAt != Long.MAX_VALUE
          && startMs(a) >= 0
          && startMs(a) + a.millis() <= downMs) {
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
              start,
              (System.nanoTime() - start) / 1_000_000,
              r.statusCode(),
              code,
              r.headers().firstValue("Retry-After").orElse(null),
              json == null
                  ? null
                  : json.path("error").isTextual() // /ready's answer
                      ? json.path("error").asText()
                      : json.path("error").path("message").asText(null));
    } catch (IOException e) {
      lastBody.set(null);
      a =
          new Answer(
              what, start, (System.nanoTime() - start) / 1_000_000, -1, e.toString(), null, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      lastBody.set(null);
      a = new Answer(what, start, 0, -1, "interrupted", null, null);
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
