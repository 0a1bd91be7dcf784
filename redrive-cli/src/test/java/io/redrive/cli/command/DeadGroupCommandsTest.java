package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.Redrive;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code message list --group} shows dead-letter groups, and {@code --fingerprint} narrows list,
 * retry, drop and redrive to one group.
 */
class DeadGroupCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir.resolve("data"));
    server.cli("queue", "create", "orders.dlq");
    server.cli("queue", "create", "orders", "--dead-letter-queue", "orders.dlq");
    server.cli("queue", "create", "jobs");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Enqueues and fails for good one message per order number, with a Java stack trace. */
  private void kill(String queue, String exception, String text, int... orders) {
    Redrive redrive = server.redrive();
    for (int n : orders) {
      server.enqueue(queue, "charge", "{\"n\":" + n + "}");
      LeasedMessage m = redrive.lease(LeaseRequest.of(queue, "t", 1)).leased().get(0);
      redrive.fail(
          FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, text.formatted(n))
              .withRetryable(false)
              .withStackTrace(
                  exception
                      + ": "
                      + text.formatted(n)
                      + "\n\tat com.shop.Billing.charge(Billing.java:"
                      + n
                      + ")\n"));
    }
  }

  private String fingerprint(String queue, int index) throws Exception {
    Cli.Result r = server.cli("message", "list", queue, "--group", "--json");
    assertThat(r.exit()).as(r.toString()).isZero();
    return JSON.readTree(r.out()).get("groups").get(index).get("fingerprint").asText();
  }

  @Test
  void listGroup_table_showsCountCauseAndFingerprint() throws Exception {
    kill("jobs", "java.lang.IllegalStateException", "order %d failed", 1, 22, 333);
    kill("jobs", "java.io.IOException", "disk %d full", 4);

    Cli.Result r = server.cli("message", "list", "jobs", "--group");

    assertThat(r.exit()).as(r.toString()).isZero();
    String[] lines = r.out().split("\n");
    assertThat(lines[0])
        .contains(
            "COUNT",
            "REASON",
            "TYPE",
            "EXCEPTION",
            "PATTERN",
            "FIRST SEEN",
            "LAST SEEN",
            "FINGERPRINT");
    assertThat(lines[1])
        .contains(
            "3",
            "HANDLER_EXCEPTION",
            "charge",
            "java.lang.IllegalStateException",
            "order <n> failed",
            fingerprint("jobs", 0));
    assertThat(lines[2]).contains("1", "java.io.IOException", "disk <n> full");
  }

  @Test
  void listGroup_allQueuesAndJson() throws Exception {
    kill("jobs", "java.lang.IllegalStateException", "order %d failed", 1, 2);
    kill("orders", "java.lang.IllegalStateException", "order %d failed", 3);

    Cli.Result table = server.cli("message", "list", "--group", "--all-queues");
    Cli.Result json = server.cli("message", "list", "--group", "--all-queues", "--json");

    assertThat(table.exit()).as(table.toString()).isZero();
    assertThat(table.out().split("\n")[0]).contains("QUEUE");
    assertThat(table.out()).contains("jobs").contains("orders.dlq");
    JsonNode page = JSON.readTree(json.out());
    assertThat(page.get("groups")).hasSize(2);
    assertThat(page.get("groups").get(0).get("queue").asText()).isEqualTo("jobs");
    assertThat(page.get("groups").get(0).get("count").asInt()).isEqualTo(2);
  }

  @Test
  void listGroup_badArguments_areUsageErrors() {
    assertThat(server.cli("message", "list", "--group").exit()).isEqualTo(2);
    assertThat(server.cli("message", "list", "jobs", "--group", "--all-queues").exit())
        .isEqualTo(2);
    assertThat(server.cli("message", "list", "jobs", "--group", "--state", "dead").exit())
        .isEqualTo(2);
    assertThat(server.cli("message", "list", "jobs", "--all-queues").exit()).isEqualTo(2);
    Cli.Result bad = server.cli("message", "list", "jobs", "--fingerprint", "XYZ");
    assertThat(bad.exit()).isNotZero();
    assertThat(bad.err()).contains("fingerprint");
  }

  @Test
  void fingerprint_narrowsListRetryDropAndRedrive() throws Exception {
    kill("jobs", "java.lang.IllegalStateException", "order %d failed", 1, 2, 3);
    kill("jobs", "java.io.IOException", "disk %d full", 4);
    String orders = fingerprint("jobs", 0);
    String disk = fingerprint("jobs", 1);

    Cli.Result listed = server.cli("message", "list", "jobs", "--fingerprint", orders, "--quiet");
    assertThat(listed.out().trim().split("\n")).hasSize(3);

    Cli.Result retried =
        server.cli("message", "retry", "--queue", "jobs", "--all-dead", "--fingerprint", orders);
    assertThat(retried.exit()).as(retried.toString()).isZero();
    assertThat(server.redrive().stats("jobs").ready()).isEqualTo(3);
    assertThat(server.redrive().stats("jobs").dead()).isEqualTo(1);

    Cli.Result dropped =
        server.cli("message", "drop", "--queue", "jobs", "--fingerprint", disk, "--yes");
    assertThat(dropped.exit()).as(dropped.toString()).isZero();
    assertThat(server.redrive().stats("jobs").dead()).isZero();

    kill("orders", "java.lang.IllegalStateException", "order %d failed", 5, 6);
    kill("orders", "java.io.IOException", "disk %d full", 7);
    String dlqOrders = fingerprint("orders.dlq", 0);
    Cli.Result redriven = server.cli("queue", "redrive", "orders.dlq", "--fingerprint", dlqOrders);
    assertThat(redriven.exit()).as(redriven.toString()).isZero();
    assertThat(server.redrive().stats("orders").ready()).isEqualTo(2);
    assertThat(server.redrive().stats("orders.dlq").dead()).isEqualTo(1);
  }
}
