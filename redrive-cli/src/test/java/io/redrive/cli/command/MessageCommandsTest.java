package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.failure.FailureReason;
import io.redrive.message.Message;
import io.redrive.message.MessageQuery;
import io.redrive.message.MessageState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive enqueue}, {@code message ...} and {@code import} against a real server. */
class MessageCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir.resolve("data"));
    server.cli("queue", "create", "orders", "--max-attempts", "2");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void enqueue_printsTheIdAndStoresEveryField() {
    Cli.Result r =
        server.cli(
            "enqueue", "orders",
            "--type", "send-email",
            "--payload", "{\"to\":\"ada@example.com\"}",
            "--header", "trace=abc",
            "--header", "tenant=7",
            "--stream", "customer-42",
            "--delay", "5m",
            "--expire-after", "1h");

    assertThat(r.exit()).as(r.toString()).isZero();
    String id = r.out().strip();
    Message m = server.redrive().getMessage(id);
    assertThat(m.type()).isEqualTo("send-email");
    assertThat(m.payload()).isEqualTo("{\"to\":\"ada@example.com\"}");
    assertThat(m.headers()).containsEntry("trace", "abc").containsEntry("tenant", "7");
    assertThat(m.stream()).isEqualTo("customer-42");
    assertThat(m.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(m.expireAt()).isNotNull();
  }

  @Test
  void enqueue_payloadFromFile_andDedupeKey_reportsTheDuplicate() throws Exception {
    Path file = dir.resolve("payload.json");
    Files.writeString(file, "{\"order\": 42}");

    Cli.Result first =
        server.cli(
            "enqueue",
            "orders",
            "--type",
            "charge",
            "--payload",
            "@" + file,
            "--dedupe-key",
            "o-42");
    Cli.Result second =
        server.cli(
            "enqueue",
            "orders",
            "--type",
            "charge",
            "--payload",
            "@" + file,
            "--dedupe-key",
            "o-42",
            "--json");

    assertThat(first.exit()).as(first.toString()).isZero();
    assertThat(second.exit()).isZero();
    assertThat(JSON.readTree(second.out()).get("duplicate").asBoolean()).isTrue();
    assertThat(server.redrive().stats("orders").total()).isEqualTo(1);
  }

  @Test
  void enqueue_uniqueKey_keepsOrReplacesTheWaitingMessage_andSaysWhich() throws Exception {
    Cli.Result first =
        server.cli("enqueue", "orders", "--type", "report", "--payload", "1", "--unique-key", "r");
    Cli.Result kept =
        server.cli("enqueue", "orders", "--type", "report", "--payload", "2", "--unique-key", "r");
    Cli.Result replaced =
        server.cli(
            "enqueue",
            "orders",
            "--type",
            "report",
            "--payload",
            "3",
            "--unique-key",
            "r",
            "--on-duplicate",
            "replace",
            "--json");
    Cli.Result debounced =
        server.cli(
            "enqueue",
            "orders",
            "--type",
            "report",
            "--payload",
            "4",
            "--unique-key",
            "r",
            "--debounce",
            "10m");

    assertThat(first.exit()).as(first.toString()).isZero();
    String id = first.out().strip();
    assertThat(kept.out()).contains(id).contains("duplicate").contains("unique key r");
    assertThat(JSON.readTree(replaced.out()).get("replaced").asBoolean()).isTrue();
    assertThat(debounced.exit()).as(debounced.toString()).isZero();
    assertThat(debounced.out()).contains(id).contains("replaced");
    Message m = server.redrive().getMessage(id);
    assertThat(m.payload()).isEqualTo("4");
    assertThat(m.uniqueKey()).isEqualTo("r");
    assertThat(m.state()).isEqualTo(MessageState.SCHEDULED);
    assertThat(server.redrive().stats("orders").total()).isEqualTo(1);
    Cli.Result show = server.cli("message", "show", id);
    assertThat(show.out()).contains("unique key").contains("r (held until the first lease)");
  }

  @Test
  void enqueue_missingFile_exitsOne() {
    Cli.Result r =
        server.cli("enqueue", "orders", "--type", "t", "--payload", "@" + dir.resolve("nope"));

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("no such file");
  }

  @Test
  void enqueue_missingQueue_exitsThree() {
    Cli.Result r = server.cli("enqueue", "nope", "--type", "t");

    assertThat(r.exit()).isEqualTo(3);
  }

  @Test
  void list_printsStateAttemptsAndDeadReason() {
    server.enqueue("orders", "charge", "{}");
    server.failAll("orders", FailureReason.VALIDATION_FAILURE, "card number is missing");
    server.enqueue("orders", "send-email", "{}");

    Cli.Result r = server.cli("message", "list", "orders");

    assertThat(r.exit()).as(r.toString()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("ID").contains("STATE", "TYPE", "ATTEMPTS", "REASON");
    assertThat(r.out()).containsPattern("DEAD\\s+charge\\s+1/2\\s.*VALIDATION_FAILURE");
    assertThat(r.out()).containsPattern("READY\\s+send-email\\s+0/2");
  }

  @Test
  void list_filtersAndPages() throws Exception {
    server.enqueue("orders", "a", "{}");
    server.enqueue("orders", "b", "{}");
    server.enqueue("orders", "b", "{}");

    Cli.Result byType = server.cli("message", "list", "orders", "--type", "b", "--json");
    Cli.Result page1 = server.cli("message", "list", "orders", "--limit", "2");
    String cursor = page1.err().replace("more: add --after", "").strip();
    Cli.Result page2 = server.cli("message", "list", "orders", "--limit", "2", "--after", cursor);
    Cli.Result dead = server.cli("message", "list", "orders", "--state", "dead");

    assertThat(JSON.readTree(byType.out()).get("messages")).hasSize(2);
    assertThat(page1.out().lines()).hasSize(3);
    assertThat(page1.err()).startsWith("more: add --after ");
    assertThat(page2.exit()).as(page2.toString()).isZero();
    assertThat(page2.out().lines()).hasSize(2);
    assertThat(dead.out()).isEqualTo("no messages\n");
  }

  @Test
  void list_byPayloadField_printsOnlyMatches_andRefusesAFieldWithoutValue() {
    String match = server.enqueue("orders", "ship", "{\"order\":{\"id\":42}}");
    server.enqueue("orders", "ship", "{\"order\":{\"id\":7}}");
    server.enqueue("orders", "ship", "order.id=42, not JSON");

    Cli.Result found = server.cli("message", "list", "orders", "--field", "order.id=42", "--quiet");
    Cli.Result noValue = server.cli("message", "list", "orders", "--field", "order.id");
    Cli.Result badPath = server.cli("message", "list", "orders", "--field", "order..id=42");
    Cli.Result grouped = server.cli("message", "list", "orders", "--group", "--field", "a=1");

    assertThat(found.exit()).as(found.toString()).isZero();
    assertThat(found.out()).isEqualTo(match + "\n");
    assertThat(noValue.exit()).isEqualTo(2);
    assertThat(noValue.err()).contains("--field: give PATH=VALUE");
    assertThat(badPath.exit()).as(badPath.toString()).isNotZero();
    assertThat(badPath.err()).contains("field: ");
    assertThat(grouped.exit()).isEqualTo(2);
  }

  @Test
  void show_printsSummaryAndTimeline() {
    String id = server.enqueue("orders", "charge", "{\"order\":42}");
    server.failAll("orders", FailureReason.DEPENDENCY_FAILURE, "gateway timed out");

    Cli.Result r = server.cli("message", "show", id);

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("id        " + id + "\n")
        .contains("queue     orders\n")
        .containsPattern("state     DEAD \\(DEPENDENCY_FAILURE at \\d{4}-")
        .contains("attempts  1 of 2\n")
        .contains("payload   {\"order\":42}\n")
        .contains("history:\n")
        .containsPattern(
            "(?m)^  \\d{4}-\\d\\d-\\d\\d [\\d:.]+Z  #1  FAILED\\s+w1\\s+DEPENDENCY_FAILURE: gateway timed out\\s+ran [\\dmsh]+; not retryable$")
        .contains("last error: ")
        .contains("(stack trace recorded: add --verbose)")
        .doesNotContain("Handler.java:42");
  }

  /** The id the enqueue returned still finds the message after it moved to a dead-letter queue. */
  @Test
  void show_theEnqueuedIdOfAMovedMessage_showsItsCopy_withTheLineage() throws Exception {
    server.cli("queue", "create", "orders.dlq");
    server.cli(
        "queue", "create", "payments", "--max-attempts", "1", "--dead-letter-queue", "orders.dlq");
    String id = server.enqueue("payments", "charge", "{\"order\":42}");
    server.failAll("payments", FailureReason.VALIDATION_FAILURE, "card declined");
    String copy =
        server.redrive().listMessages(MessageQuery.all("orders.dlq")).messages().get(0).id();

    Cli.Result r = server.cli("message", "show", id);

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).contains("note: " + id + " moved; showing " + copy);
    assertThat(r.out())
        .contains("id        " + copy + "\n")
        .contains("queue     orders.dlq\n")
        .contains("lineage   " + id + " (payments, gone) -> " + copy + " (orders.dlq, DEAD)\n");
    Cli.Result json = server.cli("message", "show", id, "--json");
    assertThat(json.exit()).as(json.toString()).isZero();
    assertThat(JSON.readTree(json.out()).get("id").asText()).isEqualTo(copy);
    Cli.Result unknown = server.cli("message", "show", "01ffffff-ffff-7fff-8fff-ffffffffffff");
    assertThat(unknown.exit()).as(unknown.toString()).isEqualTo(3);
  }

  @Test
  void show_verbose_printsTheStackTrace() {
    String id = server.enqueue("orders", "charge", "{}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");

    Cli.Result r = server.cli("message", "show", id, "--verbose");

    assertThat(r.out())
        .contains("  java.lang.IllegalStateException: boom\n")
        .contains("at Handler.run(Handler.java:42)");
  }

  @Test
  void show_poisonedMessage_timelineEndsWithPoisoned() {
    String id = server.enqueue("orders", "render", "{}");
    server.poisonAll("orders", 2);

    Cli.Result r = server.cli("message", "show", id.substring(0, 28));

    assertThat(r.exit()).as(r.toString()).isZero();
    List<String> timeline =
        r.out()
            .lines()
            .dropWhile(l -> !l.equals("history:"))
            .skip(1)
            .takeWhile(l -> !l.isEmpty())
            .toList();
    assertThat(timeline).hasSizeGreaterThanOrEqualTo(3);
    assertThat(timeline.get(0)).contains("#1", "ABANDONED", "w2");
    assertThat(timeline.get(timeline.size() - 1)).contains("POISON");
  }

  @Test
  void show_prefix_uniqueAmbiguousAndUnknown() {
    String a = server.enqueue("orders", "t", "{}");
    server.enqueue("orders", "t", "{}");

    Cli.Result unique = server.cli("message", "show", a.substring(0, 28));
    Cli.Result ambiguous = server.cli("message", "show", a.substring(0, 4));
    Cli.Result unknown = server.cli("message", "show", "ffff");

    assertThat(unique.exit()).as(unique.toString()).isZero();
    assertThat(unique.out()).contains(a);
    assertThat(ambiguous.exit()).isEqualTo(4);
    assertThat(ambiguous.err()).contains("AMBIGUOUS_ID");
    assertThat(unknown.exit()).isEqualTo(3);
    assertThat(unknown.err()).contains("MESSAGE_NOT_FOUND");
  }

  @Test
  void show_json_includesHistory() throws Exception {
    String id = server.enqueue("orders", "t", "{}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");

    JsonNode m = JSON.readTree(server.cli("message", "show", id, "--json").out());

    assertThat(m.get("id").asText()).isEqualTo(id);
    assertThat(m.get("history")).hasSize(1);
  }

  @Test
  void retry_idsAndPrefixes_reportsRetriedSkippedAndNotFound() {
    String dead = server.enqueue("orders", "t", "{}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");
    String ready = server.enqueue("orders", "t", "{}");
    String missing = "01900000-0000-7000-8000-000000000000";

    Cli.Result r = server.cli("message", "retry", dead.substring(0, 28), ready, missing, "ffff");

    assertThat(r.exit()).as(r.toString()).isEqualTo(3);
    assertThat(r.out())
        .startsWith("retried 1, skipped 1 (not dead), not found 2\n")
        .contains("  retried    " + dead + "\n")
        .contains("  skipped    " + ready + " (not dead)\n")
        .contains("  not found  " + missing + "\n")
        .contains("  not found  ffff\n");
    assertThat(server.redrive().getMessage(dead).state()).isEqualTo(MessageState.READY);
    assertThat(server.redrive().getMessage(dead).attempts()).isZero();
  }

  @Test
  void retry_allRetried_exitsZero_someSkipped_exitsFour() throws Exception {
    String dead = server.enqueue("orders", "t", "{}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");

    Cli.Result ok = server.cli("message", "retry", dead, "--json");
    Cli.Result again = server.cli("message", "retry", dead);

    assertThat(ok.exit()).isZero();
    assertThat(JSON.readTree(ok.out()).get("retried").get(0).asText()).isEqualTo(dead);
    assertThat(again.exit()).isEqualTo(4);
    assertThat(again.out()).startsWith("retried 0, skipped 1");
  }

  @Test
  void retry_ambiguousPrefix_exitsFourAndChangesNothing() {
    String a = server.enqueue("orders", "t", "{}");
    server.enqueue("orders", "t", "{}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");

    Cli.Result r = server.cli("message", "retry", a, a.substring(0, 4));

    assertThat(r.exit()).isEqualTo(4);
    assertThat(r.err()).contains("AMBIGUOUS_ID");
    assertThat(server.redrive().getMessage(a).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void retry_statusFailed_leavesPoisonedAndExpiredDead() {
    server.enqueue("orders", "t", "{}");
    server.enqueue("orders", "t", "{}");
    List<String> failed = server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");
    String poisoned = server.enqueue("orders", "t", "{}");
    server.poisonAll("orders", 2);

    Cli.Result r = server.cli("message", "retry", "--queue", "orders", "--status", "failed");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEqualTo("retried 2, skipped 0 (not dead), not found 0\n");
    failed.forEach(
        id -> assertThat(server.redrive().getMessage(id).state()).isEqualTo(MessageState.READY));
    assertThat(server.redrive().getMessage(poisoned).state()).isEqualTo(MessageState.DEAD);
  }

  @Test
  void retry_allDead_retriesPoisonedToo() {
    server.enqueue("orders", "t", "{}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");
    server.enqueue("orders", "t", "{}");
    server.poisonAll("orders", 2);

    Cli.Result r = server.cli("message", "retry", "--queue", "orders", "--all-dead");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEqualTo("retried 2, skipped 0 (not dead), not found 0\n");
    assertThat(server.redrive().stats("orders").dead()).isZero();
  }

  @Test
  void drop_byIdAndPrefix_reportsNotFound() {
    String a = server.enqueue("orders", "t", "{}");

    Cli.Result r = server.cli("message", "drop", a.substring(0, 28), "ffff");

    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.out()).startsWith("dropped 1, not found 1\n").contains("  dropped    " + a);
    assertThat(server.redrive().stats("orders").total()).isZero();
  }

  @Test
  void drop_byFilterWithYes_dropsOnlyMatches() {
    server.enqueue("orders", "a", "{}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");
    server.enqueue("orders", "b", "{}");

    Cli.Result refused = server.cli("message", "drop", "--queue", "orders", "--state", "dead");
    Cli.Result r = server.cli("message", "drop", "--queue", "orders", "--state", "dead", "--yes");

    assertThat(refused.exit()).isEqualTo(2);
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEqualTo("dropped 1, not found 0\n");
    assertThat(server.redrive().stats("orders").total()).isEqualTo(1);
  }

  @Test
  void import_jsonLines_isIdempotentOnSourceId() throws Exception {
    Path file = dir.resolve("messages.jsonl");
    Files.writeString(
        file,
        "{\"sourceId\":\"legacy-1\",\"type\":\"charge\",\"payload\":{\"n\":1}}\n"
            + "{\"sourceId\":\"legacy-2\",\"type\":\"charge\",\"dead\":true,\"headers\":{\"k\":\"v\"}}\n");

    Cli.Result first = server.cli("import", "orders", file.toString());
    Cli.Result second = server.cli("import", "orders", file.toString(), "--json");

    assertThat(first.exit()).as(first.toString()).isZero();
    assertThat(first.out())
        .isEqualTo("imported 2 into orders, duplicates 0 (source ids already there)\n");
    JsonNode again = JSON.readTree(second.out());
    assertThat(again.get("imported")).isEmpty();
    assertThat(again.get("duplicates")).hasSize(2);
    assertThat(server.redrive().stats("orders").dead()).isEqualTo(1);
  }

  @Test
  void import_listJsonOfAnotherQueue_restoresItsMessages() throws Exception {
    server.cli("queue", "create", "backup");
    server.enqueue("orders", "charge", "{\"n\":1}");
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");
    Path file = dir.resolve("export.json");
    Files.writeString(file, server.cli("message", "list", "orders", "--json").out());

    Cli.Result r = server.cli("import", "backup", file.toString());

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).startsWith("imported 1 into backup");
    assertThat(server.redrive().stats("backup").dead()).isEqualTo(1);
  }

  @Test
  void import_keepsPriorityAndLimitKey() throws Exception {
    Path file = dir.resolve("keyed.jsonl");
    Files.writeString(
        file, "{\"sourceId\":\"k-1\",\"type\":\"charge\",\"priority\":6,\"limitKey\":\"t-1\"}\n");

    Cli.Result r = server.cli("import", "orders", file.toString(), "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    String id = JSON.readTree(r.out()).get("imported").get(0).asText();
    assertThat(server.redrive().getMessage(id).priority()).isEqualTo(6);
    assertThat(server.redrive().getMessage(id).limitKey()).isEqualTo("t-1");
  }

  @Test
  void import_notJson_exitsTwo() throws Exception {
    Path file = dir.resolve("bad.jsonl");
    Files.writeString(file, "{\"sourceId\":\"x\",\"type\":\"t\"}\nnot json\n");

    Cli.Result r = server.cli("import", "orders", file.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("FILE line 2: not JSON");
  }
}
