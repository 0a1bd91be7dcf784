package io.redrive.cli.testing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP server that answers every request with one canned status and body, and records the
 * requests (their Authorization headers, and method, path with query and body): for the client's
 * error mapping, and for what a command sends, without a real server.
 */
public final class FakeServer implements AutoCloseable {
  private final HttpServer server;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private volatile int status = 200;
  private volatile String body = "{}";
  private volatile long delayMillis;

  public FakeServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          authorizations.add(
              String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
          requests.add(
              new Request(
                  exchange.getRequestMethod(),
                  exchange.getRequestURI().toString(),
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
          if (delayMillis > 0) {
            try {
              Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          if (status == 204) {
            exchange.sendResponseHeaders(204, -1);
          } else {
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(bytes);
            }
          }
          exchange.close();
        });
    server.start();
  }

  /** One request received: its method, path with query, and body (empty when none). */
  public record Request(String method, String uri, String body) {}

  public FakeServer answer(int status, String body) {
    this.status = status;
    this.body = body;
    return this;
  }

  public FakeServer delay(long millis) {
    this.delayMillis = millis;
    return this;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<String> authorizations() {
    return authorizations;
  }

  public List<Request> requests() {
    return requests;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
