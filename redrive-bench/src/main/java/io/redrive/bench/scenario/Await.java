package io.redrive.bench.scenario;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds. */
final class Await {
  private Await() {}

  static void until(String what, BooleanSupplier condition, Duration timeout, long pollMillis)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new TimeoutException(what + ": not reached within " + timeout);
      }
      Thread.sleep(pollMillis);
    }
  }
}
