package io.redrive.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.cli.testing.Cli;
import io.redrive.cli.testing.TestServer;
import io.redrive.server.RedriveServer;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.config.StoreSettings;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code redrive ping}: the server answers, or not, or starts while it waits. */
class PingCommandTest {
  @TempDir Path dir;

  @Test
  void ping_runningServer_saysItIsUp() {
    try (TestServer server = TestServer.start(dir)) {
      Cli.Result r = server.cli("ping");

      assertThat(r.exit()).as(r.toString()).isZero();
      assertThat(r.out()).isEqualTo("Redrive server at " + server.url() + " is up\n");
    }
  }

  @Test
  void ping_noServer_exitsSixAtOnce() throws Exception {
    int port = freePort();

    Cli.Result r = Cli.run("ping", "--server", "http://127.0.0.1:" + port, "--json");

    assertThat(r.exit()).isEqualTo(6);
    assertThat(r.err()).contains("\"code\":\"UNREACHABLE\"");
  }

  @Test
  void ping_wait_returnsOnceTheServerStarts() throws Exception {
    int port = freePort();
    AtomicReference<Cli.Result> result = new AtomicReference<>();
    Thread ping =
        new Thread(
            () ->
                result.set(
                    Cli.run("ping", "--wait", "1m", "--server", "http://127.0.0.1:" + port)));
    ping.start();
    ServerConfig config =
        ServerConfig.defaults().withPort(port).withStore(StoreSettings.sqlite(dir));
    RedriveServer server = RedriveServer.start(config, new KeyAuthorizer(List.of()));
    try {
      ping.join();
    } finally {
      server.stop();
    }

    assertThat(result.get().exit()).as(result.get().toString()).isZero();
    assertThat(result.get().out()).endsWith("is up\n");
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
