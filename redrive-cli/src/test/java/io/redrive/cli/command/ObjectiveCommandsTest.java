package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.failure.FailureReason;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive objective ...} and {@code redrive policy what-if} against a real server. */
class ObjectiveCommandsTest {
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
  void objective_set_list_delete() {
    assertThat(server.cli("queue", "create", "orders").exit()).isZero();
    Cli.Result set =
        server.cli(
            "objective",
            "set",
            "orders-start",
            "--queue",
            "orders",
            "--kind",
            "latency",
            "--target",
            "95%",
            "--bound",
            "1m",
            "--window",
            "1h");
    assertThat(set.exit()).as(set.toString()).isZero();
    assertThat(set.out()).isEqualTo("saved objective orders-start: 95.00% of orders within 1m\n");

    server.enqueue("orders", "t", "{}");
    server.failAll("orders", FailureReason.VALIDATION_FAILURE, "bad"); // leased at once: in time

    Cli.Result list = server.cli("objective", "list");
    assertThat(list.exit()).as(list.toString()).isZero();
    assertThat(list.out())
        .contains("orders-start")
        .contains("latency")
        .contains("100.00%")
        .contains("ok");
    assertThat(server.cli("objective", "delete", "orders-start").out())
        .isEqualTo("deleted objective orders-start\n");
    assertThat(server.cli("objective", "list").out()).startsWith("no objectives");

    Cli.Result bad =
        server.cli(
            "objective",
            "set",
            "x",
            "--queue",
            "orders",
            "--kind",
            "fast",
            "--target",
            "0.9",
            "--bound",
            "1m");
    assertThat(bad.exit()).isNotZero();
    assertThat(bad.err()).contains("kind");
  }

  @Test
  void policyWhatIf_reportsRecordedAndCandidateEnds_andTheAssumption() {
    assertThat(server.cli("queue", "create", "jobs", "--max-attempts", "2").exit()).isZero();
    server.enqueue("jobs", "t", "{}");
    server.poisonAll("jobs", 2); // two abandoned attempts, then POISON

    Cli.Result r =
        server.cli(
            "policy",
            "what-if",
            "--queue",
            "jobs",
            "--since",
            "1h",
            "--max-attempts",
            "4",
            "--backoff",
            "fixed:1s");
    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("replayed 1 stories of jobs")
        .contains("dead attempts")
        .contains("1 stories assumed: an attempt the record lacks is assumed");

    Cli.Result json =
        server.cli("policy", "what-if", "--queue", "jobs", "--max-attempts", "1", "--json");
    assertThat(json.out()).contains("\"replayed\" : 1").contains("\"DEAD_ATTEMPTS\" : 1");
  }
}
