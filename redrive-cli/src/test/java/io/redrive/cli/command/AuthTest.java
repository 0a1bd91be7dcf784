package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.Role;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server with API keys: missing, unknown and under-privileged tokens exit 5. */
class AuthTest {
  private static final String ADMIN = "admin-secret-0123456789";
  private static final String VIEWER = "viewer-secret-0123456789";

  @TempDir Path dir;
  private TestServer server;

  @BeforeEach
  void start() {
    server =
        TestServer.start(
            dir,
            List.of(
                new ApiKey("ops", ADMIN, Role.ADMIN, List.of()),
                new ApiKey("dash", VIEWER, Role.VIEWER, List.of())));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void noToken_exitsFive() {
    Cli.Result r = server.cli("queue", "list");

    assertThat(r.exit()).isEqualTo(5);
    assertThat(r.err()).contains("(UNAUTHORIZED)");
  }

  @Test
  void unknownToken_exitsFiveWithoutPrintingIt() {
    Cli.Result r = server.cli("queue", "list", "--token", "not-a-key-0123456789");

    assertThat(r.exit()).isEqualTo(5);
    assertThat(r.out() + r.err()).doesNotContain("not-a-key-0123456789");
  }

  @Test
  void viewer_mayListButNotCreate() {
    Cli.Result list = server.cli("queue", "list", "--token", VIEWER);
    Cli.Result create = server.cli("queue", "create", "orders", "--token", VIEWER);

    assertThat(list.exit()).as(list.toString()).isZero();
    assertThat(create.exit()).isEqualTo(5);
    assertThat(create.err()).contains("(FORBIDDEN)");
  }

  @Test
  void admin_mayCreate() {
    Cli.Result r = server.cli("queue", "create", "orders", "--token", ADMIN);

    assertThat(r.exit()).as(r.toString()).isZero();
  }
}
