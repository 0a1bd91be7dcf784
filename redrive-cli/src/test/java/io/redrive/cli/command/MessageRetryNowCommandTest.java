package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.failure.FailureReason;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.MessageState;
import io.redrive.message.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive message retry-now} against a real server. */
class MessageRetryNowCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server = TestServer.start(dir.resolve("data"));
    server.cli("queue", "create", "orders", "--max-attempts", "3");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Enqueues a message and fails it with a long backoff: it waits for its automatic retry. */
  private String waitingForRetry() {
    String id = server.enqueue("orders", "t", "{}");
    LeasedMessage m = server.redrive().lease(LeaseRequest.of("orders", "w1", 1)).leased().get(0);
    server
        .redrive()
        .fail(
            FailRequest.of(m.token(), FailureReason.HANDLER_EXCEPTION, "boom")
                .withRetryAfter(Duration.ofHours(1)));
    assertThat(m.id()).isEqualTo(id);
    return id;
  }

  @Test
  void retryNow_scheduledMessage_visibleAtOnceWithAttemptsKept() {
    String id = waitingForRetry();

    Cli.Result r = server.cli("message", "retry-now", id.substring(0, 28));

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out())
        .startsWith("retried now 1, skipped 0 (not scheduled), not found 0\n")
        .contains("  retried    " + id + "\n");
    var m = server.redrive().getMessage(id);
    assertThat(m.state()).isEqualTo(MessageState.READY);
    assertThat(m.attempts()).isEqualTo(1);
    assertThat(m.history().get(m.history().size() - 1).outcome()).isEqualTo(Outcome.RETRIED_NOW);
  }

  @Test
  void retryNow_readyAndMissing_skippedAndNotFound_exitCodes() throws Exception {
    String ready = server.enqueue("orders", "t", "{}");
    String missing = "01900000-0000-7000-8000-000000000000";

    Cli.Result skipped = server.cli("message", "retry-now", ready, "--json");
    Cli.Result notFound = server.cli("message", "retry-now", missing);

    assertThat(skipped.exit()).as(skipped.toString()).isEqualTo(4);
    assertThat(JSON.readTree(skipped.out()).get("skipped").get(0).asText()).isEqualTo(ready);
    assertThat(notFound.exit()).as(notFound.toString()).isEqualTo(3);
    assertThat(notFound.out()).contains("  not found  " + missing);
    assertThat(server.redrive().getMessage(ready).history()).isEmpty();
  }
}
