package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.failure.FailureReason;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive queue ...} against a real server. */
class QueueCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void create_withPolicyFlags_printsThePolicy() {
    assertThat(server.cli("queue", "create", "orders.dlq").exit()).isZero();

    Cli.Result r =
        server.cli(
            "queue",
            "create",
            "orders",
            "--max-attempts",
            "3",
            "--lease-timeout",
            "45s",
            "--backoff",
            "exponential:10s:3:10m",
            "--expire-after",
            "1d",
            "--dead-letter-queue",
            "orders.dlq",
            "--stream-policy",
            "halt");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("created queue orders\n")
        .contains("max attempts   3\n")
        .contains("lease timeout  45s\n")
        .contains("backoff        exponential:10s:3:10m\n")
        .contains("expire after   1d\n")
        .contains("dead letter    move -> orders.dlq\n")
        .contains("stream policy  HALT\n");
  }

  @Test
  void maxCrashesFlag_createAndUpdate_setsTheBreakerAndShowSaysIt() throws Exception {
    Cli.Result created = server.cli("queue", "create", "orders", "--max-crashes", "2");

    assertThat(created.exit()).as(created.toString()).isZero();
    assertThat(created.out()).contains("max crashes    2\n");
    Cli.Result updated = server.cli("queue", "update", "orders", "--max-crashes", "0");
    assertThat(updated.exit()).as(updated.toString()).isZero();
    assertThat(updated.out()).contains("max crashes    off\n");
    JsonNode q = JSON.readTree(server.cli("queue", "show", "orders", "--json").out());
    assertThat(q.get("maxCrashes").asInt()).isZero();
  }

  @Test
  void completedRetentionFlag_roundTrip_keepsTheStoryAndMessageShowFindsIt() throws Exception {
    Cli.Result created = server.cli("queue", "create", "mails", "--completed-retention", "24h");
    assertThat(created.exit()).as(created.toString()).isZero();
    assertThat(created.out()).contains("completed      kept 1d\n");
    io.redrive.Redrive redrive = server.redrive();
    String messageId =
        redrive
            .enqueue(
                io.redrive.message.NewMessage.builder("mails", "welcome").payload("{}").build())
            .id();
    redrive.complete(
        redrive.lease(io.redrive.lease.LeaseRequest.of("mails", "w", 1)).leased().get(0).token());
    Cli.Result shown = server.cli("message", "show", messageId);
    assertThat(shown.exit()).as(shown.toString()).isZero();
    assertThat(shown.out()).contains("COMPLETED");
    Cli.Result listed = server.cli("message", "list", "mails", "--state", "completed");
    assertThat(listed.out()).contains(messageId);

    Cli.Result cleared = server.cli("queue", "update", "mails", "--completed-retention", "default");
    assertThat(cleared.exit()).as(cleared.toString()).isZero();
    assertThat(cleared.out()).contains("completed      engine default\n");
    Cli.Result tooLong = server.cli("queue", "update", "mails", "--completed-retention", "91d");
    assertThat(tooLong.exit()).as(tooLong.toString()).isEqualTo(1);
    assertThat(tooLong.err()).contains("completedRetention: must be between 0s");
  }

  @Test
  void limitFlags_roundTrip_shownByQueueShow_andEnqueueTakesALimitKey() throws Exception {
    Cli.Result created =
        server.cli(
            "queue",
            "create",
            "tenants",
            "--max-running",
            "10",
            "--max-running-per-key",
            "2",
            "--rate",
            "100/1m");
    assertThat(created.exit()).as(created.toString()).isZero();
    assertThat(created.out()).contains("limits         max running 10, per key 2, rate 100/1m\n");
    Cli.Result updated = server.cli("queue", "update", "tenants", "--rate-per-key", "10/1s");
    assertThat(updated.out())
        .contains("limits         max running 10, per key 2, rate 100/1m, rate per key 10/1s\n");
    Cli.Result enqueued =
        server.cli("enqueue", "tenants", "--type", "t", "--payload", "{}", "--limit-key", "acme");
    assertThat(enqueued.exit()).as(enqueued.toString()).isZero();
    String id = enqueued.out().trim().split("\\s+")[0];
    assertThat(server.redrive().getMessage(id).limitKey()).isEqualTo("acme");

    Cli.Result bad = server.cli("queue", "update", "tenants", "--rate", "fast");
    assertThat(bad.exit()).as(bad.toString()).isEqualTo(1);
    assertThat(bad.err()).contains("limits.rate: must be leases/period");
    Cli.Result removed = server.cli("queue", "update", "tenants", "--no-limits");
    assertThat(removed.out()).contains("limits         none\n");
  }

  @Test
  void maxCrashesFlag_negative_exitsOneWithTheServersMessage() throws Exception {
    server.cli("queue", "create", "orders", "--max-crashes", "3");

    Cli.Result r = server.cli("queue", "update", "orders", "--max-crashes", "-1");

    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.err()).contains("maxCrashes: must be between 0 (off) and 10000, was -1");
    JsonNode q = JSON.readTree(server.cli("queue", "show", "orders", "--json").out());
    assertThat(q.get("maxCrashes").asInt()).isEqualTo(3);
  }

  @Test
  void create_retryShortForm_setsAttemptsAndFixedBackoff() throws Exception {
    Cli.Result r = server.cli("queue", "create", "emails", "--retry", "3:30s", "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode q = JSON.readTree(r.out());
    assertThat(q.get("maxAttempts").asInt()).isEqualTo(3);
    assertThat(q.get("backoff").get("kind").asText()).isEqualTo("fixed");
    assertThat(q.get("backoff").get("cooldown").asText()).isEqualTo("30s");
  }

  @Test
  void create_existingQueue_exitsFourWithTheServersCode() {
    server.cli("queue", "create", "orders");

    Cli.Result r = server.cli("queue", "create", "orders");

    assertThat(r.exit()).isEqualTo(4);
    assertThat(r.err()).startsWith("error: ").endsWith("(QUEUE_EXISTS)\n");
  }

  @Test
  void create_invalidPolicy_exitsOneWithTheServersMessage() {
    Cli.Result r = server.cli("queue", "create", "orders", "--dead-letter-queue", "missing");

    assertThat(r.exit()).as(r.toString()).isIn(1, 3);
    assertThat(r.err()).contains("missing");
  }

  @Test
  void list_printsOneAlignedRowPerQueue() {
    server.cli("queue", "create", "b.dlq");
    server.cli("queue", "create", "a", "--max-attempts", "7", "--dead-letter-queue", "b.dlq");

    Cli.Result r = server.cli("queue", "list");

    assertThat(r.exit()).isZero();
    assertThat(r.out().lines())
        .hasSize(3)
        .first()
        .asString()
        .startsWith("NAME   PAUSED  MAX ATTEMPTS  LEASE  BACKOFF");
    assertThat(r.out()).contains("a      no                 7  30s    exponential:1m:2:1h");
    assertThat(r.out()).contains("move -> b.dlq");
  }

  @Test
  void list_noQueues_saysSo() {
    Cli.Result r = server.cli("queue", "list");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("no queues");
  }

  @Test
  void list_json_isTheServersJson() throws Exception {
    server.cli("queue", "create", "orders");

    Cli.Result r = server.cli("queue", "list", "--json");

    assertThat(r.exit()).isZero();
    assertThat(JSON.readTree(r.out()).get("queues").get(0).get("name").asText())
        .isEqualTo("orders");
  }

  @Test
  void show_printsPolicyAndCounts() {
    server.cli("queue", "create", "orders");
    server.enqueue("orders", "send-email", "{}");
    server.enqueue("orders", "send-email", "{}");

    Cli.Result r = server.cli("queue", "show", "orders");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("queue          orders\n").contains("ready             2\n");
    assertThat(r.out()).contains("completed      engine default\n");
    assertThat(r.out()).contains("total             2\n");
  }

  @Test
  void show_missingQueue_exitsThree() {
    Cli.Result r = server.cli("queue", "show", "nope");

    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.err()).contains("QUEUE_NOT_FOUND");
  }

  @Test
  void update_changesOnlyTheGivenFieldsAndClearsExpiry() throws Exception {
    server.cli("queue", "create", "orders", "--max-attempts", "3", "--expire-after", "1h");

    Cli.Result r =
        server.cli("queue", "update", "orders", "--lease-timeout", "2m", "--expire-after", "none");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("updated queue orders\n").contains("max attempts   3\n");
    JsonNode q = JSON.readTree(server.cli("queue", "show", "orders", "--json").out());
    assertThat(q.get("leaseTimeout").asText()).isEqualTo("2m");
    assertThat(q.get("expireAfter").isNull()).isTrue();
  }

  @Test
  void pauseAndResume_flipPaused() throws Exception {
    server.cli("queue", "create", "orders");

    Cli.Result paused = server.cli("queue", "pause", "orders");
    JsonNode afterPause = JSON.readTree(server.cli("queue", "show", "orders", "--json").out());
    Cli.Result resumed = server.cli("queue", "resume", "orders");
    JsonNode afterResume = JSON.readTree(server.cli("queue", "show", "orders", "--json").out());

    assertThat(paused.out()).isEqualTo("paused queue orders\n");
    assertThat(afterPause.get("paused").asBoolean()).isTrue();
    assertThat(resumed.out()).isEqualTo("resumed queue orders\n");
    assertThat(afterResume.get("paused").asBoolean()).isFalse();
  }

  @Test
  void delete_removesTheQueue() {
    server.cli("queue", "create", "orders");

    Cli.Result r = server.cli("queue", "delete", "orders");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo("deleted queue orders\n");
    assertThat(server.cli("queue", "show", "orders").exit()).isEqualTo(3);
  }

  @Test
  void stats_oneQueue_countsByStateAndDeadReason() {
    server.cli("queue", "create", "orders", "--max-attempts", "1");
    server.enqueue("orders", "charge", "{}");
    server.failAll("orders", FailureReason.VALIDATION_FAILURE, "bad card");
    server.enqueue("orders", "charge", "{}");

    Cli.Result r = server.cli("queue", "stats", "orders");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("ready             1\n")
        .contains("dead              1\n")
        .contains("dead reasons      VALIDATION_FAILURE 1\n");
  }

  @Test
  void workers_listsLiveWorkersWithTheirTypes() throws Exception {
    server.cli("queue", "create", "jobs");
    io.redrive.Redrive redrive = server.redrive();
    redrive.lease(
        io.redrive.lease.LeaseRequest.of("jobs", "py-7", 1)
            .withTypes(java.util.Set.of("thumb", "resize")));
    redrive.lease(io.redrive.lease.LeaseRequest.of("jobs", "any-1", 1));

    Cli.Result r = server.cli("queue", "workers", "jobs");
    Cli.Result json = server.cli("queue", "workers", "jobs", "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("WORKER")
        .containsPattern("(?m)^any-1\\s+\\*\\s")
        .containsPattern("(?m)^py-7\\s+resize,thumb\\s")
        .contains("every ready type is served");
    assertThat(JSON.readTree(json.out()).get("workers")).hasSize(2);
    assertThat(server.cli("queue", "workers", "nope").exit()).isNotZero();
  }

  @Test
  void stats_allQueues_oneRowEach() throws Exception {
    server.cli("queue", "create", "a");
    server.cli("queue", "create", "b");
    server.enqueue("b", "t", "{}");

    Cli.Result r = server.cli("queue", "stats");
    Cli.Result json = server.cli("queue", "stats", "--json");

    assertThat(r.exit()).isZero();
    assertThat(r.out().lines()).hasSize(3);
    assertThat(r.out()).contains("QUEUE  READY").containsPattern("(?m)^b\\s+1\\s");
    assertThat(JSON.readTree(json.out()).get("stats")).hasSize(2);
  }

  @Test
  void throughput_oneQueue_printsAMinuteTableOrJson() throws Exception {
    server.cli("queue", "create", "orders", "--max-attempts", "1");
    server.enqueue("orders", "charge", "{}");
    server.enqueue("orders", "charge", "{}");
    server.failAll("orders", FailureReason.VALIDATION_FAILURE, "bad card");

    Cli.Result r = server.cli("queue", "throughput", "orders", "--minutes", "3");
    Cli.Result json = server.cli("queue", "throughput", "orders", "--minutes", "3", "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out().lines()).hasSize(4);
    assertThat(r.out().lines().findFirst().orElseThrow())
        .contains("MINUTE")
        .contains("ENQUEUED")
        .contains("COMPLETED")
        .contains("FAILED")
        .contains("DIED")
        .contains("READY");
    JsonNode answer = JSON.readTree(json.out());
    assertThat(answer.get("minutes").asInt()).isEqualTo(3);
    long enqueued = 0;
    long died = 0;
    for (JsonNode p : answer.get("points")) {
      enqueued += p.get("enqueued").asLong();
      died += p.get("dead").asLong();
    }
    assertThat(enqueued).isEqualTo(2);
    assertThat(died).isEqualTo(2);
    assertThat(server.cli("queue", "throughput", "orders", "--minutes", "0").exit()).isNotZero();
  }

  @Test
  void activityAlias_printsWhatThroughputPrints() throws Exception {
    server.cli("queue", "create", "orders", "--max-attempts", "1");
    server.enqueue("orders", "charge", "{}");
    server.failAll("orders", FailureReason.VALIDATION_FAILURE, "bad card");

    // Read between two equal answers of the new name, so no minute turned in between.
    Cli.Result alias = null;
    Cli.Result json = null;
    for (int i = 0; i < 5 && alias == null; i++) {
      Cli.Result before = server.cli("queue", "throughput", "orders", "--minutes", "3", "--json");
      Cli.Result old = server.cli("queue", "activity", "orders", "--minutes", "3", "--json");
      Cli.Result after = server.cli("queue", "throughput", "orders", "--minutes", "3", "--json");
      if (before.out().equals(after.out())) {
        alias = old;
        json = after;
      }
    }

    assertThat(alias).as("two equal answers in a row").isNotNull();
    assertThat(alias.exit()).as(alias.toString()).isZero();
    assertThat(JSON.readTree(alias.out())).isEqualTo(JSON.readTree(json.out()));
    assertThat(JSON.readTree(alias.out()).get("points").findValues("enqueued"))
        .extracting(JsonNode::asLong)
        .contains(1L);
    Cli.Result table = server.cli("queue", "activity", "orders", "--minutes", "3");
    assertThat(table.exit()).as(table.toString()).isZero();
    assertThat(table.out().lines().findFirst().orElseThrow()).contains("MINUTE", "ENQUEUED");
    assertThat(server.cli("queue", "activity", "orders", "--minutes", "0").exit()).isNotZero();
    assertThat(server.cli("queue", "--help").out()).contains("throughput, activity");
  }

  @Test
  void redrive_dryRunThenForReal_movesDeadMessagesBack() throws Exception {
    server.cli("queue", "create", "orders.dlq");
    server.cli(
        "queue", "create", "orders", "--max-attempts", "1", "--dead-letter-queue", "orders.dlq");
    server.enqueue("orders", "charge", "{\"n\":1}");
    server.enqueue("orders", "charge", "{\"n\":2}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");

    Cli.Result dry = server.cli("queue", "redrive", "orders.dlq", "--dry-run");
    Cli.Result real =
        server.cli(
            "queue", "redrive", "orders.dlq", "--reason", "handler_exception", "--limit", "10");
    Cli.Result again = server.cli("queue", "redrive", "orders.dlq");

    assertThat(dry.exit()).as(dry.toString()).isZero();
    assertThat(dry.out())
        .startsWith("would redrive 2 messages from orders.dlq (dry run: nothing changed)\n");
    assertThat(real.exit()).as(real.toString()).isZero();
    assertThat(real.out())
        .startsWith("redrove 2 messages from orders.dlq\n")
        .contains("DEAD-LETTER ID");
    assertThat(again.out()).isEqualTo("nothing to redrive from orders.dlq\n");
    assertThat(server.redrive().stats("orders").ready()).isEqualTo(2);
  }

  @Test
  void redrive_json_parses() throws Exception {
    server.cli("queue", "create", "dlq");

    Cli.Result r = server.cli("queue", "redrive", "dlq", "--json", "--dead-since", "1h");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(JSON.readTree(r.out()).has("moves")).isTrue();
  }

  @Test
  void redrive_streamPosition_printsTheStreamsOrder_dryRunChangesNothing() {
    server.cli("queue", "create", "orders.dlq");
    server.cli("queue", "create", "orders", "--dead-letter-queue", "orders.dlq");
    server.redrive().enqueue(inStream(1));
    server.failAll("orders", FailureReason.VALIDATION_FAILURE, "bad");
    String second = server.redrive().enqueue(inStream(2)).id();
    String third = server.redrive().enqueue(inStream(3)).id();

    Cli.Result dry = server.cli("queue", "redrive", "orders.dlq", "--dry-run", "--position", "end");
    Cli.Result bad = server.cli("queue", "redrive", "orders.dlq", "--position", "middle");
    Cli.Result real = server.cli("queue", "redrive", "orders.dlq");

    assertThat(dry.exit()).as(dry.toString()).isZero();
    assertThat(dry.out())
        .containsPattern(
            "stream acct-7 in orders would be delivered in this order \\(\\* redriven\\): "
                + second
                + " "
                + third
                + " \\S+\\*\n");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.toString()).contains("--position").contains("middle");
    assertThat(real.exit()).as(real.toString()).isZero();
    assertThat(real.out())
        .containsPattern(
            "stream acct-7 in orders will be delivered in this order \\(\\* redriven\\): \\S+\\* "
                + second
                + " "
                + third
                + "\n");
  }

  private static io.redrive.message.NewMessage inStream(int n) {
    return io.redrive.message.NewMessage.builder("orders", "charge").stream("acct-7")
        .payload("{\"n\":" + n + "}")
        .build();
  }
}
