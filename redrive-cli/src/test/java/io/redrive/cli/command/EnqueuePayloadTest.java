package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive enqueue --payload} sends the payload exactly as written. */
class EnqueuePayloadTest {
  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir.resolve("data"));
    server.cli("queue", "create", "orders");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void enqueue_payloadKeptAsWritten() {
    String payload = "{\"a\":1.10, \"b\":1e2,\"c\":[1.0]}";

    Cli.Result r = server.cli("enqueue", "orders", "--type", "t", "--payload", payload);

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(server.redrive().getMessage(r.out().strip()).payload()).isEqualTo(payload);
  }

  @Test
  void enqueue_trailingText_refusedAndNothingEnqueued() {
    Cli.Result r = server.cli("enqueue", "orders", "--type", "t", "--payload", "{\"a\":1} x");

    assertThat(r.exit()).as(r.toString()).isNotZero();
    assertThat(r.err()).contains("--payload: not JSON");
    assertThat(server.redrive().stats("orders").total()).isZero();
  }
}
