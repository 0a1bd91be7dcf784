package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.FakeServer;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The error answers of docs/api.md, and no answer at all, become the documented exit codes. */
class ExitCodeTest {
  private FakeServer server;

  @BeforeEach
  void start() throws IOException {
    server = new FakeServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @ParameterizedTest
  @CsvSource({
    "400, INVALID_REQUEST, 1",
    "401, UNAUTHORIZED, 5",
    "403, FORBIDDEN, 5",
    "404, QUEUE_NOT_FOUND, 3",
    "409, QUEUE_EXISTS, 4",
    "409, AMBIGUOUS_ID, 4",
    "413, PAYLOAD_TOO_LARGE, 1",
    "500, INTERNAL, 6",
    "503, STORE_UNAVAILABLE, 6",
    "503, COMMIT_UNKNOWN, 6"
  })
  void errorAnswer_mapsToExitCodeAndPrintsServerMessage(int status, String code, int exit) {
    server.answer(status, "{\"error\":{\"code\":\"" + code + "\",\"message\":\"it went wrong\"}}");

    Cli.Result r = Cli.run("queue", "show", "orders", "--server", server.url());

    assertThat(r.exit()).as(r.toString()).isEqualTo(exit);
    assertThat(r.err()).isEqualTo("error: it went wrong (" + code + ")\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void errorAnswer_withJson_printsErrorJsonOnStandardError() throws Exception {
    server.answer(404, "{\"error\":{\"code\":\"QUEUE_NOT_FOUND\",\"message\":\"no queue\"}}");

    Cli.Result r = Cli.run("queue", "show", "orders", "--json", "--server", server.url());

    assertThat(r.exit()).isEqualTo(3);
    var error = new ObjectMapper().readTree(r.err()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("QUEUE_NOT_FOUND");
    assertThat(error.get("status").asInt()).isEqualTo(404);
  }

  @Test
  void errorAnswer_notInApiFormat_stillMapsByStatus() {
    server.answer(502, "<html>bad gateway</html>");

    Cli.Result r = Cli.run("queue", "list", "--server", server.url());

    assertThat(r.exit()).isEqualTo(6);
    assertThat(r.err()).contains("answered 502").contains("(HTTP_502)");
  }

  @Test
  void noServer_exitsSixWithAHint() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    Cli.Result r = Cli.run("queue", "list", "--server", "http://127.0.0.1:" + port);

    assertThat(r.exit()).isEqualTo(6);
    assertThat(r.err())
        .startsWith("error: cannot reach the Redrive server at http://127.0.0.1:" + port)
        .contains("is `redrive server` running?");
  }

  @Test
  void slowServer_exitsSixAfterTimeout() {
    server.delay(2_000);

    Cli.Result r = Cli.run("queue", "list", "--server", server.url(), "--timeout", "200ms");

    assertThat(r.exit()).isEqualTo(6);
    assertThat(r.err()).contains("did not answer within 200ms").contains("(TIMEOUT)");
  }

  @Test
  void token_isSentAsBearerAndNeverPrinted() {
    String token = "s3cret-token-value-123";
    server.answer(401, "{\"error\":{\"code\":\"UNAUTHORIZED\",\"message\":\"unknown key\"}}");

    Cli.Result r = Cli.run("queue", "list", "--server", server.url(), "--token", token);

    assertThat(server.authorizations()).containsExactly("Bearer " + token);
    assertThat(r.exit()).isEqualTo(5);
    assertThat(r.out() + r.err()).doesNotContain(token);
  }

  @Test
  void token_fromEnvironment_isUsedWhenNoFlag() {
    var saved = ApiOptions.environment;
    ApiOptions.environment =
        java.util.Map.of("REDRIVE_TOKEN", "env-token", "REDRIVE_SERVER", server.url());
    try {
      Cli.Result r = Cli.run("queue", "list");

      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(server.authorizations()).containsExactly("Bearer env-token");
    } finally {
      ApiOptions.environment = saved;
    }
  }

  @Test
  void cliConfigFile_givesServerAndToken(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws IOException {
    java.nio.file.Path file = dir.resolve("cli.toml");
    java.nio.file.Files.writeString(
        file, "server = \"" + server.url() + "\"\ntoken = \"file-token\"\n");
    var saved = ApiOptions.environment;
    ApiOptions.environment = java.util.Map.of("REDRIVE_CLI_CONFIG", file.toString());
    try {
      Cli.Result r = Cli.run("queue", "list");

      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(server.authorizations()).containsExactly("Bearer file-token");
    } finally {
      ApiOptions.environment = saved;
    }
  }

  @Test
  void badServerUrl_isAUsageError() {
    Cli.Result r = Cli.run("queue", "list", "--server", "ftp://example.com");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--server: expected http://host:port");
  }

  @Test
  void usageError_withJson_isTheErrorObjectWithCodeUsage() throws Exception {
    Cli.Result r = Cli.run("queue", "show", "orders", "--json", "--bogus");
    Cli.Result missing = Cli.run("lease", "--json");

    assertThat(r.exit()).isEqualTo(2);
    JsonNode error = new ObjectMapper().readTree(r.err()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("USAGE");
    assertThat(error.get("message").asText()).contains("--bogus");
    assertThat(r.out()).isEmpty();
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(new ObjectMapper().readTree(missing.err()).get("error").get("message").asText())
        .contains("QUEUE");
  }

  @Test
  void localFailure_withJson_isTheErrorObjectWithItsCode() throws Exception {
    Cli.Result r =
        Cli.run("message", "retry", "--queue", "q", "--json", "--server", "http://127.0.0.1:1");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(new ObjectMapper().readTree(r.err()).get("error").get("code").asText())
        .isEqualTo("USAGE");
  }
}
