package io.redrive.worker;

import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One lease this worker holds, from lease to settle. Exactly one party settles it — the runner, the
 * timeout watchdog, the hung-handler give-up or the shutdown — whoever {@link #claim()}s it first;
 * a party that interrupts the runner does so holding this object's monitor, so the runner (which
 * claims under the same monitor) never sees an interrupt meant for an earlier message.
 *
 * <p>Entered by the poller (creates it), the runner, the watchdog and heartbeat timers, the settle
 * thread and the stopping thread; every field is atomic or volatile. Which run it belongs to is
 * kept by {@link Slots}.
 */
final class HeldLease {
  final LeasedMessage message;

  /** The message's lease token, parsed once: every settle of this lease names it. */
  final LeaseToken token;

  final long leasedAtNanos;
  private final AtomicBoolean claimed = new AtomicBoolean();

  /** The heartbeat saw the lease lost; it stops renewing it. */
  volatile boolean lost;

  /** The heartbeat gave up on a hung handler; it stops renewing it. */
  volatile boolean renewalStopped;

  /**
   * When its handler started ({@link #started} tells whether it has); maxRenewal counts from it.
   */
  volatile long startedAtNanos;

  volatile boolean started;

  /** The delivery's trace once its handler (or the unregistered-type settle) starts, else null. */
  volatile io.redrive.trace.HandlerTrace trace;

  HeldLease(LeasedMessage message, long leasedAtNanos) {
    this.message = message;
    this.token = LeaseToken.parse(message.token());
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
