package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.redrive.server.RawHttp.Answer;
import io.redrive.store.Store;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code [server] allowedHosts}: names a proxy or DNS alias uses are accepted as {@code Host} and
 * {@code Origin}, others still are not. The check is in the HTTP layer, so one store is enough.
 */
class AllowedHostsTest {
  @Test
  void allowedHost_acceptedAsHostAndOrigin_othersStillRefused() {
    Store store = StoreKind.SQLITE.newDatabase().open();
    RedriveServer server =
        RedriveServer.start(
            TestServers.config().withAllowedHosts(List.of("Redrive.Internal")),
            TestServers.ALLOW_ALL,
            store);
    try {
      int port = server.port();
      Answer read =
          RawHttp.send(port, "GET /v1/queues HTTP/1.1\r\nHost: redrive.internal:7070", null);
      assertThat(read.status()).as(read.toString()).isEqualTo(200);
      Answer create =
          RawHttp.send(
              port,
              "POST /v1/queues HTTP/1.1\r\nHost: redrive.internal\r\n"
                  + "Content-Type: application/json\r\nOrigin: https://redrive.internal",
              "{\"name\":\"allowed-host\"}");
      assertThat(create.status()).as(create.toString()).isEqualTo(201);
      Answer other = RawHttp.send(port, "GET /v1/queues HTTP/1.1\r\nHost: other.internal", null);
      assertThat(other.status()).as(other.toString()).isEqualTo(421);
      assertThat(other.code()).isEqualTo("MISDIRECTED_REQUEST");
    } finally {
      server.stop();
      store.close();
    }
  }
}
