package io.redrive.worker;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A latch the poller sleeps on between polls; a signal (NOTIFY, freed slot, settle, stop) ends the
 * nap. The poller and the stopping thread wait; any thread signals; both under its own lock.
 */
final class Wakeup {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition signalled = lock.newCondition();
  private boolean pending;

  void signal() {
    lock.lock();
    try {
      pending = true;
      signalled.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Waits up to {@code max} for a signal; returns true if one came (and consumes it). */
  boolean await(Duration max) throws InterruptedException {
    lock.lock();
    try {
      long nanos = max.toNanos();
      while (!pending && nanos > 0) {
        nanos = signalled.awaitNanos(nanos);
      }
      boolean got = pending;
      pending = false;
      return got;
    } finally {
      lock.unlock();
    }
  }
}
