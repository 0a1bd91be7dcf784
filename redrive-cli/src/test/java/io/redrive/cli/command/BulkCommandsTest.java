package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.output.Progress;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.failure.FailureReason;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue redrive} and {@code message retry --queue} work through every match in server-side
 * batches, show progress on a terminal and say what remains when {@code --limit} stops them.
 */
class BulkCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir.resolve("data"));
    server.cli("queue", "create", "orders.dlq");
    server.cli(
        "queue", "create", "orders", "--max-attempts", "1", "--dead-letter-queue", "orders.dlq");
    server.cli("queue", "create", "jobs", "--max-attempts", "1");
  }

  @AfterEach
  void stop() {
    Progress.terminal = () -> System.console() != null;
    server.close();
  }

  private void deadLetters(int count) {
    for (int i = 0; i < count; i++) {
      server.enqueue("orders", "charge", "{\"n\":" + i + "}");
    }
    server.failAll("orders", FailureReason.HANDLER_EXCEPTION, "boom");
  }

  @Test
  void redrive_batches_movesEveryMatch() {
    deadLetters(7);

    Cli.Result r = server.cli("queue", "redrive", "orders.dlq", "--batch", "2");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("redrove 7 messages from orders.dlq\n")
        .doesNotContain("stopped");
    assertThat(r.err()).isEmpty(); // not a terminal: no progress
    assertThat(server.redrive().stats("orders").ready()).isEqualTo(7);
    assertThat(server.redrive().stats("orders.dlq").dead()).isZero();
  }

  @Test
  void redrive_limit_stopsAndSaysWhatRemains() throws Exception {
    deadLetters(7);

    Cli.Result r = server.cli("queue", "redrive", "orders.dlq", "--batch", "2", "--limit", "5");
    Cli.Result json = server.cli("queue", "redrive", "orders.dlq", "--limit", "1", "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("redrove 5 messages from orders.dlq\n")
        .endsWith("stopped at --limit 5: 2 more match (run again, or raise --limit)\n");
    JsonNode result = JSON.readTree(json.out());
    assertThat(result.get("count").asInt()).isEqualTo(1);
    assertThat(result.get("remaining").asInt()).isEqualTo(1);
    assertThat(result.get("moves")).hasSize(1);
    assertThat(server.redrive().stats("orders.dlq").dead()).isEqualTo(1);
  }

  @Test
  void redrive_dryRun_countsEveryMatchAndChangesNothing() {
    deadLetters(5);

    Cli.Result r = server.cli("queue", "redrive", "orders.dlq", "--dry-run", "--batch", "2");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("would redrive 5 messages from orders.dlq (dry run: nothing changed)\n")
        .contains("(the first 2 listed)");
    assertThat(server.redrive().stats("orders.dlq").dead()).isEqualTo(5);
  }

  @Test
  void redrive_onATerminal_showsProgressOnStderr() {
    Progress.terminal = () -> true;
    deadLetters(5);

    Cli.Result r = server.cli("queue", "redrive", "orders.dlq", "--batch", "2");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err())
        .contains("\rredriving 2 of 5")
        .contains("\rredriving 4 of 5")
        .contains("\rredriving 5 of 5");
    assertThat(r.out()).doesNotContain("\r");
  }

  @Test
  void redrive_badBatch_isUsage() {
    Cli.Result r = server.cli("queue", "redrive", "orders.dlq", "--batch", "0");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--batch: must be between 1 and 100000, was 0");
  }

  private void jobsDeadAs(FailureReason reason, int count) {
    for (int i = 0; i < count; i++) {
      server.enqueue("jobs", reason.name(), "{}");
    }
    server.failAll("jobs", reason, "boom");
  }

  @Test
  void retryByQueue_batches_retriesEveryMatch_serverSideFilter() {
    jobsDeadAs(FailureReason.HANDLER_EXCEPTION, 5);
    server.enqueue("jobs", "poison", "{}");
    server.poisonAll("jobs", 1);
    assertThat(server.redrive().stats("jobs").dead()).isEqualTo(6);

    Cli.Result r =
        server.cli("message", "retry", "--queue", "jobs", "--status", "failed", "--batch", "2");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEqualTo("retried 5, skipped 0 (not dead), not found 0\n");
    assertThat(server.redrive().stats("jobs").ready()).isEqualTo(5);
    assertThat(server.redrive().stats("jobs").dead()).isEqualTo(1); // the POISON one stays
  }

  @Test
  void retryByQueue_limit_stopsAndSaysWhatRemains() throws Exception {
    jobsDeadAs(FailureReason.HANDLER_EXCEPTION, 5);

    Cli.Result r =
        server.cli(
            "message", "retry", "--queue", "jobs", "--all-dead", "--batch", "2", "--limit", "3");
    Cli.Result json =
        server.cli("message", "retry", "--queue", "jobs", "--all-dead", "--limit", "1", "--json");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .isEqualTo(
            "retried 3, skipped 0 (not dead), not found 0\n"
                + "stopped at --limit 3: 2 more match (run again, or raise --limit)\n");
    JsonNode result = JSON.readTree(json.out());
    assertThat(result.get("retried")).hasSize(1);
    assertThat(result.get("remaining").asInt()).isEqualTo(1);
  }

  @Test
  void retryByQueue_deadReasonAndType_filterOnTheServer() {
    jobsDeadAs(FailureReason.VALIDATION_FAILURE, 2);
    jobsDeadAs(FailureReason.HANDLER_EXCEPTION, 3);

    Cli.Result r =
        server.cli(
            "message",
            "retry",
            "--queue",
            "jobs",
            "--all-dead",
            "--dead-reason",
            "validation_failure",
            "--type",
            "VALIDATION_FAILURE");

    assertThat(r.out()).startsWith("retried 2,");
    assertThat(server.redrive().stats("jobs").dead()).isEqualTo(3);
  }

  @Test
  void retryByQueue_onATerminal_showsProgressOnStderr() {
    Progress.terminal = () -> true;
    jobsDeadAs(FailureReason.HANDLER_EXCEPTION, 3);

    Cli.Result r = server.cli("message", "retry", "--queue", "jobs", "--all-dead", "--batch", "2");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).contains("\rretrying 2 of 3").contains("\rretrying 3 of 3");
  }
}
