package io.redrive.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Clock} that only moves when told to, so tests of backoff, leases, expiry and scheduling
 * never sleep. Thread-safe: many threads may read it while one advances it.
 */
public final class ControllableClock extends Clock {
  private final AtomicReference<Instant> now;

  public ControllableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** A clock at a fixed, round starting instant (2030-01-01T00:00:00Z). */
  public static ControllableClock startingAtEpochOfTests() {
    return new ControllableClock(Instant.parse("2030-01-01T00:00:00Z"));
  }

  /** Moves the clock forward by {@code d} and returns the new instant. */
  public Instant advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("advance: duration must not be negative, was " + d);
    }
    return now.updateAndGet(t -> t.plus(d));
  }

  /** Sets the clock to {@code t} (forward or back). */
  public void set(Instant t) {
    now.set(t);
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
    throw new UnsupportedOperationException("ControllableClock is always UTC");
  }
}
