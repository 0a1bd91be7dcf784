package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.FakeServer;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code queue create/update --backoff-jitter}: the API's {@code backoff.jitter} the CLI sends,
 * with {@code --backoff} or alone, and how {@code queue show} reads it back.
 */
class JitterFlagsTest {
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

  @Test
  void queueCreate_withBackoff_sendsTheJitterInIt_andShowSaysIt() throws Exception {
    server.answer(
        201,
        "{\"name\":\"orders\",\"maxAttempts\":5,"
            + "\"backoff\":{\"kind\":\"fixed\",\"cooldown\":\"30s\",\"jitter\":\"FULL\"}}");

    Cli.Result r =
        cli("queue", "create", "orders", "--backoff", "fixed:30s", "--backoff-jitter", "full");

    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode sent = JSON.readTree(server.requests().get(0).body());
    assertThat(sent.get("backoff").get("cooldown").asText()).isEqualTo("30s");
    assertThat(sent.get("backoff").get("jitter").asText()).isEqualTo("FULL");
    assertThat(r.out()).contains("fixed:30s jitter FULL");
  }

  @Test
  void queueUpdate_jitterAlone_sendsOnlyTheJitter() {
    server.answer(200, "{\"name\":\"orders\",\"maxAttempts\":5}");

    Cli.Result r = cli("queue", "update", "orders", "--backoff-jitter", "EQUAL");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(server.requests().get(0).body()).isEqualTo("{\"backoff\":{\"jitter\":\"EQUAL\"}}");
  }

  @Test
  void queueUpdate_badJitter_isAUsageErrorWithoutARequest() {
    Cli.Result r = cli("queue", "update", "orders", "--backoff-jitter", "half");

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("--backoff-jitter: must be one of NONE, FULL, EQUAL, was half");
    assertThat(server.requests()).isEmpty();
  }
}
