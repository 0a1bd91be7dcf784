package io.redrive.server.http;

import io.redrive.error.JdbcUrls;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the store whether it answers, within a bound: {@code /ready} must answer quickly even while
 * the database hangs or is down. The store call runs on its own thread; a caller that finds a probe
 * still under way waits for that one instead of starting another, so a hanging database ties up one
 * thread, not one per request. Thread-safe.
 */
final class ReadinessProbe {
  private static final Logger log = LoggerFactory.getLogger(ReadinessProbe.class);

  /** How long {@code /ready} waits for the store (documented in docs/api.md). */
  static final Duration BOUND = Duration.ofSeconds(1);

  private final Runnable ping;
  private final Duration bound;
  private final Executor executor;
  private CompletableFuture<Void> current;

  /** {@code ping} is one store round trip that throws when the store does not answer. */
  ReadinessProbe(Runnable ping, Duration bound) {
    this.ping = ping;
    this.bound = bound;
    this.executor =
        r -> {
          Thread t = new Thread(r, "redrive-ready-probe");
          t.setDaemon(true);
          t.start();
        };
  }

  /** Null when the store answered within the bound, else why not. */
  String problem() {
    CompletableFuture<Void> probe;
    synchronized (this) {
      if (current == null || current.isDone()) {
        current = CompletableFuture.runAsync(ping, executor);
      }
      probe = current;
    }
    try {
      probe.get(bound.toMillis(), TimeUnit.MILLISECONDS);
      return null;
    } catch (TimeoutException e) {
      return "the store did not answer within " + bound.toMillis() + " ms";
    } catch (ExecutionException e) {
      // The answer is public (no key): the driver's and pool's words stay in the log.
      Throwable cause = e.getCause() == null ? e : e.getCause();
      log.warn("readiness: the store cannot be reached: {}", JdbcUrls.mask(cause.getMessage()));
      return "the store cannot be reached (the server log has the details)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
