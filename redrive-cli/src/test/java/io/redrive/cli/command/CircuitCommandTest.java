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
 * {@code redrive circuit list|show|open|close}, {@code fail --dependency} and the {@code
 * --circuit-*} queue flags: the requests the CLI sends and how it reads the answers, against a
 * server that answers with canned JSON.
 */
class CircuitCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OPEN =
      "{\"dependency\":\"smtp\",\"state\":\"OPEN\",\"failures\":3,"
          + "\"openedAt\":\"2030-01-01T00:00:00Z\",\"nextProbeAt\":\"2030-01-01T00:00:10Z\","
          + "\"wave\":0,\"types\":[\"mail\"],\"changedAt\":\"2030-01-01T00:00:00Z\","
          + "\"changedBy\":\"engine\",\"history\":[{\"at\":\"2030-01-01T00:00:00Z\","
          + "\"state\":\"OPEN\",\"by\":\"engine\"}]}";

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
  void list_showsEachCircuit() {
    server.answer(200, "{\"queue\":\"orders\",\"circuits\":[" + OPEN + "]}");

    Cli.Result r = cli("circuit", "list", "orders");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(server.requests().get(0).uri()).isEqualTo("/v1/queues/orders/circuits");
    assertThat(r.out()).contains("smtp").contains("OPEN").contains("engine");
  }

  @Test
  void show_unknownDependency_exits3() {
    server.answer(200, "{\"queue\":\"orders\",\"circuits\":[" + OPEN + "]}");

    Cli.Result r = cli("circuit", "show", "orders", "payments");

    assertThat(r.exit()).as(r.toString()).isEqualTo(3);
  }

  @Test
  void show_printsTypesAndHistory() {
    server.answer(200, "{\"queue\":\"orders\",\"circuits\":[" + OPEN + "]}");

    Cli.Result r = cli("circuit", "show", "orders", "smtp");

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).contains("mail").contains("next probe");
  }

  @Test
  void openAndClose_postTheAction() {
    server.answer(200, OPEN);
    Cli.Result open = cli("circuit", "open", "orders", "smtp");
    assertThat(open.exit()).as(open.toString()).isZero();
    assertThat(server.requests().get(0).uri()).isEqualTo("/v1/queues/orders/circuits/smtp/open");
    assertThat(open.out()).contains("circuit smtp of queue orders is OPEN");

    server.answer(200, OPEN.replace("\"OPEN\"", "\"CLOSED\""));
    Cli.Result close = cli("circuit", "close", "orders", "smtp");
    assertThat(server.requests().get(1).uri()).isEqualTo("/v1/queues/orders/circuits/smtp/close");
    assertThat(close.out()).contains("is CLOSED");
  }

  @Test
  void fail_dependency_isSent() throws Exception {
    server.answer(200, "{\"id\":\"m1\",\"state\":\"READY\"}");

    Cli.Result r = cli("fail", "m1.abc", "--dependency", "smtp");

    assertThat(r.exit()).as(r.toString()).isZero();
    JsonNode sent = JSON.readTree(server.requests().get(0).body());
    assertThat(sent.get("dependency").asText()).isEqualTo("smtp");
  }

  @Test
  void queueUpdate_circuitFlags_sendTheCircuit_andNoCircuitTurnsItOff() throws Exception {
    server.answer(200, "{\"name\":\"orders\",\"maxAttempts\":5}");

    Cli.Result on =
        cli("queue", "update", "orders", "--circuit-failures", "3", "--circuit-waves", "1,4");
    Cli.Result off = cli("queue", "update", "orders", "--no-circuit");

    assertThat(on.exit()).as(on.toString()).isZero();
    JsonNode sent = JSON.readTree(server.requests().get(0).body());
    assertThat(sent.get("circuit").get("failures").asInt()).isEqualTo(3);
    assertThat(sent.get("circuit").get("waves").toString()).isEqualTo("[1,4]");
    assertThat(off.exit()).as(off.toString()).isZero();
    assertThat(server.requests().get(1).body()).isEqualTo("{\"circuit\":null}");
  }
}
