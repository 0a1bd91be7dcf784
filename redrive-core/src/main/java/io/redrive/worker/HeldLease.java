package io.redrive.worker;

import io.redrive.lease.LeasedMessage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One lease this worker holds, from lease to settle. Exactly one party settles it — the runner, the
 * timeout watchdog or the shutdown — whoever {@link #claim()}s it first.
 */
final class HeldLease {
  final LeasedMessage message;
  final long leasedAtNanos;
  private final AtomicBoolean claimed = new AtomicBoolean();
  volatile boolean lost;
  volatile boolean renewalStopped;

  /**
   * When its handler started ({@link #started} tells whether it has); maxRenewal counts from it.
   */
  volatile long startedAtNanos;

  volatile boolean started;

  /** The run this lease belongs to (set when dispatched). */
  volatile Object run;

  HeldLease(LeasedMessage message, long leasedAtNanos) {
    this.message = message;
    this.leasedAtNanos = leasedAtNanos;
  }

  /** True for the one caller allowed to settle this lease. */
  boolean claim() {
    return claimed.compareAndSet(false, true);
  }

  boolean claimed() {
    return claimed.get();
  }
}
