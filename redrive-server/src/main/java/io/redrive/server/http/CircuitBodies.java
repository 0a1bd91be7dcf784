package io.redrive.server.http;

import io.redrive.queue.CircuitPolicy;
import java.time.Duration;
import java.util.List;

/** A queue's circuit-breaker settings ({@code circuit}) as the HTTP API reads and writes them. */
final class CircuitBodies {
  private CircuitBodies() {}

  /**
   * {@code circuit}: every field optional on input (defaults 5 failures in 30s, a probe every 10s,
   * waves [1, 5, 25], no learning); all given in answers.
   */
  record CircuitBody(
      @ApiField(min = 1, max = CircuitPolicy.MAX_FAILURES, description = "failures that open it")
          Integer failures,
      @ApiField(format = "duration", description = "how far back failures count (1ms to 1d)")
          String window,
      @ApiField(
              format = "duration",
              description = "the wait before each probe, and each half-open wave's length")
          String probeInterval,
      @ApiField(description = "messages let through per probe interval when half-open")
          List<Integer> waves,
      @ApiField(description = "derive a dependency from a failure that names none") Boolean learn) {

    CircuitPolicy toPolicy() {
      CircuitPolicy d = CircuitPolicy.defaults();
      return new CircuitPolicy(
          failures == null ? d.failures() : failures,
          window == null ? d.window() : RequestBodies.duration("circuit.window", window),
          probeInterval == null
              ? d.probeInterval()
              : RequestBodies.duration("circuit.probeInterval", probeInterval),
          waves == null ? d.waves() : waves,
          learn != null && learn);
    }
  }

  /** The answer's {@code circuit}, or null when the queue has no circuit breaker. */
  static CircuitBody view(CircuitPolicy p) {
    if (p == null) {
      return null;
    }
    return new CircuitBody(
        p.failures(), text(p.window()), text(p.probeInterval()), p.waves(), p.learn());
  }

  private static String text(Duration d) {
    return io.redrive.time.DurationText.format(d);
  }
}
