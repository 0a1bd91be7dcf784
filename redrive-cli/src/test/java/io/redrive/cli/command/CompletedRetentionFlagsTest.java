package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.FakeServer;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --completed-retention} and {@code --state completed}: the requests the CLI sends (the
 * API's {@code "completedRetention"} field, a duration or {@code "default"} on update) and how the
 * answers read, against a server that answers with canned JSON.
 */
class CompletedRetentionFlagsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FakeServer server;

  @BeforeEach
  void start() throws IOException {
    server = new FakeServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Cli.Result cli(String... args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 2);
    all[args.length] = "--server";
    all[args.length + 1] = server.url();
    return Cli.run(all);
  }

  private static String queue(String retention) {
    return "{\"name\":\"orders\",\"maxAttempts\":5,\"completedRetention\":"
        + (retention == null ? "null" : "\"" + retention + "\"")
        + "}";
  }

  @Test
  void create_sendsTheDuration_andShowSaysHowLongCompletedMessagesAreKept() throws Exception {
    server.answer(201, queue("1d"));

    Cli.Result r = cli("queue", "create", "orders", "--completed-retention", "24h");

    assertThat(r.exit()).as(r.toString()).isZero();
    FakeServer.Request sent = server.requests().get(0);
    assertThat(sent.method()).isEqualTo("POST");
    assertThat(sent.uri()).isEqualTo("/v1/queues");
    assertThat(JSON.readTree(sent.body()).get("completedRetention").asText()).isEqualTo("1d");
    assertThat(r.out()).contains("completed      kept 1d\n");
  }

  @Test
  void update_zero_sendsZero_andShowSaysNoneAreKept() throws Exception {
    server.answer(200, queue("0s"));

    Cli.Result r = cli("queue", "update", "orders", "--completed-retention", "0s");

    assertThat(r.exit()).as(r.toString()).isZero();
    FakeServer.Request sent = server.requests().get(0);
    assertThat(sent.method()).isEqualTo("PATCH");
    assertThat(sent.uri()).isEqualTo("/v1/queues/orders");
    assertThat(sent.body()).isEqualTo("{\"completedRetention\":\"0s\"}");
    assertThat(r.out()).contains("completed      not kept (0s)\n");
  }

  @Test
  void update_default_sendsDefault_andShowSaysTheQueueFollowsTheEngine() {
    server.answer(200, queue(null));

    Cli.Result r = cli("queue", "update", "orders", "--completed-retention", "DEFAULT");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(server.requests().get(0).body()).isEqualTo("{\"completedRetention\":\"default\"}");
    assertThat(r.out()).contains("completed      engine default\n");
  }

  @Test
  void create_default_isRefusedWithoutARequest() {
    Cli.Result r = cli("queue", "create", "orders", "--completed-retention", "default");

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("--completed-retention default: only queue update");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void badDuration_isAUsageErrorNamingTheOption() {
    Cli.Result r = cli("queue", "update", "orders", "--completed-retention", "a-while");

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err())
        .contains("--completed-retention")
        .contains("expected a duration (24h, 7d, 0s keeps none) or \"default\", was \"a-while\"");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void messageList_stateCompleted_asksForCompletedOnes_andShowsWhenEachCompleted() {
    server.answer(
        200,
        "{\"messages\":[{\"id\":\"m1\",\"state\":\"COMPLETED\",\"type\":\"charge\","
            + "\"attempts\":1,\"maxAttempts\":5,\"enqueuedAt\":\"2030-01-01T00:00:00Z\","
            + "\"completedAt\":\"2030-01-01T00:00:02Z\"}],\"next\":null}");

    Cli.Result r = cli("message", "list", "orders", "--state", "COMPLETED");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(server.requests().get(0).uri())
        .startsWith("/v1/queues/orders/messages?")
        .contains("state=completed");
    assertThat(r.out().lines().findFirst().orElseThrow()).contains("COMPLETED AT");
    assertThat(r.out()).contains("2030-01-01 00:00:02.000Z");
  }

  @Test
  void messageList_completedWithOtherStates_isRefusedWithoutARequest() {
    Cli.Result r = cli("message", "list", "orders", "--state", "dead,completed");

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("--state completed goes on its own");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void help_describesTheOptionAndTheState() {
    for (String command : new String[] {"create", "update"}) {
      assertThat(help("queue", command, "--help"))
          .contains("--completed-retention=DURATION")
          .contains(
              "How long completed messages keep their story (24h; 0s keeps none; at most 90d)")
          .contains("without it the engine's default (update: 'default' returns to it)");
    }
    assertThat(help("message", "list", "--help"))
        .contains("completed (on its own) lists the completed messages the queue keeps, newest");
  }

  /** The help text with its line wrapping undone. */
  private static String help(String... args) {
    Cli.Result r = Cli.run(args);
    assertThat(r.exit()).isZero();
    return r.out().replaceAll("\\s+", " ");
  }
}
