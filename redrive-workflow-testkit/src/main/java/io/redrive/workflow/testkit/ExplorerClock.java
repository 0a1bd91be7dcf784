package io.redrive.workflow.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when the explorer moves it, and only forward. Thread-safe. */
final class ExplorerClock extends Clock {
  private final AtomicReference<Instant> now;

  ExplorerClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  void advanceTo(Instant t) {
    now.updateAndGet(current -> t.isAfter(current) ? t : current);
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
    throw new UnsupportedOperationException("the explorer's clock is always UTC");
  }
}
