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
 * {@code enqueue --priority}, {@code queue create/update --default-priority --priority-aging}: the
 * requests the CLI sends (the API's {@code priority}, {@code defaultPriority} and {@code
 * priorityAging} fields) and how {@code queue show} and {@code message show} read the answers,
 * against a server that answers with canned JSON.
 */
class PriorityFlagsTest {
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
  void enqueue_priority_isSent() throws Exception {
    server.answer(201, "{\"results\":[{\"id\":\"m1\",\"duplicate\":false}]}");

    Cli.Result r = cli("enqueue", "orders", "--type", "charge", "--priority", "7");

    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode sent = JSON.readTree(server.requests().get(0).body());
    assertThat(sent.get("messages").get(0).get("priority").asInt()).isEqualTo(7);
  }

  @Test
  void enqueue_priorityOutOfRange_isAUsageErrorWithoutARequest() {
    Cli.Result r = cli("enqueue", "orders", "--type", "charge", "--priority", "12");

    assertThat(r.exit()).as(r.toString()).isEqualTo(2);
    assertThat(r.err()).contains("--priority: must be between 0 and 9, was 12");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void queueCreate_sendsBoth_andShowSaysThem() throws Exception {
    server.answer(
        201,
        "{\"name\":\"orders\",\"maxAttempts\":5,\"defaultPriority\":5,\"priorityAging\":\"2m\"}");

    Cli.Result r =
        cli("queue", "create", "orders", "--default-priority", "5", "--priority-aging", "120s");

    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode sent = JSON.readTree(server.requests().get(0).body());
    assertThat(sent.get("defaultPriority").asInt()).isEqualTo(5);
    assertThat(sent.get("priorityAging").asText()).isEqualTo("2m");
    assertThat(r.out()).contains("priority       default 5, aging 2m\n");
  }

  @Test
  void queueUpdate_sendsOnlyWhatIsGiven() {
    server.answer(
        200,
        "{\"name\":\"orders\",\"maxAttempts\":5,\"defaultPriority\":2,\"priorityAging\":\"1m\"}");

    Cli.Result r = cli("queue", "update", "orders", "--default-priority", "2");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(server.requests().get(0).body()).isEqualTo("{\"defaultPriority\":2}");
  }

  @Test
  void messageShow_showsThePriority() {
    server.answer(
        200,
        "{\"id\":\"m1\",\"queue\":\"orders\",\"type\":\"charge\",\"state\":\"READY\","
            + "\"priority\":8,\"attempts\":0,\"maxAttempts\":5,"
            + "\"enqueuedAt\":\"2030-01-01T00:00:00Z\",\"history\":[]}");

    Cli.Result r = cli("message", "show", "m1");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).containsPattern("priority +8\\n");
  }
}
