package io.redrive.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The test engine's clock: it moves only when the test moves it, so backoffs, delays, leases and
 * timers are reached at once instead of slept through. Always UTC. Thread-safe: handlers may read
 * it while the test moves it.
 */
public final class TestClock extends Clock {
  private final AtomicReference<Instant> now;

  public TestClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** Moves the clock forward by {@code d} and returns the new instant. */
  public Instant advance(Duration d) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException("d: must be zero or positive, was " + d);
    }
    return now.updateAndGet(t -> t.plus(d));
  }

  /** Sets the clock to {@code t}, forward or back. */
  public void set(Instant t) {
    now.set(java.util.Objects.requireNonNull(t, "t"));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the test clock is always UTC");
  }
}
