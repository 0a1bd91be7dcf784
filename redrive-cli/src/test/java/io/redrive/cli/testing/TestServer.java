package io.redrive.cli.testing;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.AbandonRequest;
import io.redrive.lease.FailRequest;
import io.redrive.lease.LeaseRequest;
import io.redrive.lease.LeasedMessage;
import io.redrive.message.NewMessage;
import io.redrive.server.RedriveServer;
import io.redrive.server.auth.ApiKey;
import io.redrive.server.auth.KeyAuthorizer;
import io.redrive.server.config.ServerConfig;
import io.redrive.server.config.StoreSettings;
import io.redrive.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real {@link RedriveServer} on a free port over SQLite in a temporary directory, plus shortcuts
 * that play the worker's part (lease and fail) so the CLI has dead messages to operate on.
 */
public final class TestServer implements AutoCloseable {
  private final RedriveServer server;
  private final Store store; // null when the server opened its own

  private TestServer(RedriveServer server, Store store) {
    this.server = server;
    this.store = store;
  }

  public static TestServer start(Path dir) {
    return start(dir, List.of());
  }

  public static TestServer start(Path dir, List<ApiKey> keys) {
    ServerConfig config =
        ServerConfig.defaults().withPort(0).withStore(StoreSettings.sqlite(dir)).withKeys(keys);
    // Opened here, not by the server: Redrive hands its store to no one, and tests read it.
    Store store = config.store().open();
    try {
      return new TestServer(RedriveServer.start(config, new KeyAuthorizer(keys), store), store);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** A server over SQLite in {@code dir} running the workflow runtime {@code workflows} builds. */
  public static TestServer startWithWorkflows(
      Path dir,
      java.util.function.Function<Redrive, io.redrive.workflow.WorkflowRuntime> workflows) {
    ServerConfig config = ServerConfig.defaults().withPort(0).withStore(StoreSettings.sqlite(dir));
    return new TestServer(
        RedriveServer.start(config, new KeyAuthorizer(List.of()), workflows), null);
  }

  public String url() {
    return server.baseUrl();
  }

  public Redrive redrive() {
    return server.redrive();
  }

  /**
   * The store under the server, for what only the store shows.
   *
   * @throws IllegalStateException for a server started with workflows (it opened its own)
   */
  public Store store() {
    if (store == null) {
      throw new IllegalStateException("this test server opened its own store");
    }
    return store;
  }

  /** Runs {@code redrive ARGS --server URL}. */
  public Cli.Result cli(String... args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 2);
    all[args.length] = "--server";
    all[args.length + 1] = url();
    return Cli.run(all);
  }

  public String enqueue(String queue, String type, String payload) {
    return redrive().enqueue(NewMessage.builder(queue, type).payload(payload).build()).id();
  }

  /**
   * Leases the ready messages of {@code queue} (as worker {@code w1}) and fails each with {@code
   * reason}, not retryable, so they die at once with that reason.
   */
  public List<String> failAll(String queue, FailureReason reason, String message) {
    List<LeasedMessage> leased = redrive().lease(LeaseRequest.of(queue, "w1", 100)).leased();
    for (LeasedMessage m : leased) {
      redrive()
          .fail(
              FailRequest.of(m.token(), reason, message)
                  .withRetryable(false)
                  .withStackTrace(
                      "java.lang.IllegalStateException: "
                          + message
                          + "\n\tat Handler.run(Handler.java:42)"));
    }
    return leased.stream().map(LeasedMessage::id).toList();
  }

  /**
   * Spends every attempt of the ready messages of {@code queue} by abandoning leases, then leases
   * once more so they die as POISON.
   */
  public void poisonAll(String queue, int maxAttempts) {
    for (int i = 0; i < maxAttempts; i++) {
      for (LeasedMessage m : redrive().lease(LeaseRequest.of(queue, "w2", 100)).leased()) {
        redrive().abandon(new AbandonRequest(m.token(), Duration.ZERO, false, "worker gave up"));
      }
    }
    redrive().lease(LeaseRequest.of(queue, "w2", 100));
  }

  @Override
  public void close() {
    server.stop();
    if (store != null) {
      store.close();
    }
  }
}
