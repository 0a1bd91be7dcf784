package io.redrive.server.http;

import io.redrive.store.ReadySubscription;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.WorkflowClient;
import java.time.Duration;
import java.util.Optional;

/**
 * Holds {@code GET /v1/workflows/{id}?wait=} calls until their instance ends. A waiter re-reads its
 * instance when the store announces workflow activity (a committed turn, on PostgreSQL also on
 * other nodes) and at least every {@link #RECHECK}, so many waiting clients do not poll the
 * database in a tight loop. Thread-safe; {@link #close()} releases every waiter at once.
 */
final class InstanceWaiter implements AutoCloseable {
  /** Longest a waiter sleeps without re-reading (a missed announcement costs at most this). */
  static final Duration RECHECK = Duration.ofSeconds(1);

  private final WorkflowClient client;
  private final Object signal = new Object();
  private final ReadySubscription subscription;
  private long generation;
  private boolean closed;

  InstanceWaiter(WorkflowClient client) {
    this.client = client;
    this.subscription = client.subscribeTurns(this::announce);
  }

  private void announce() {
    synchronized (signal) {
      generation++;
      signal.notifyAll();
    }
  }

  /**
   * The instance once it has ended, or as it is when {@code timeout} passed (or the server stops);
   * empty when it does not exist (any more).
   */
  Optional<InstanceInfo> awaitEnd(String id, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long seen;
      synchronized (signal) {
        seen = generation;
      }
      Optional<InstanceInfo> row = client.get(id);
      long left = deadline - System.nanoTime();
      if (row.isEmpty() || row.get().status().terminal() || left <= 0) {
        return row;
      }
      synchronized (signal) {
        if (closed) {
          return row;
        }
        if (generation == seen) {
          long millis = Math.max(1, Math.min(left / 1_000_000, RECHECK.toMillis()));
          signal.wait(millis);
        }
      }
    }
  }

  @Override
  public void close() {
    synchronized (signal) {
      closed = true;
      signal.notifyAll();
    }
    subscription.close();
  }
}
