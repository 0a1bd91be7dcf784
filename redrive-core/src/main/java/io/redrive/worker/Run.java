package io.redrive.worker;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The messages of one slot: one message, or a stream's messages in order. Created by the poller,
 * executed by one runner thread (which sets {@link #runner}, {@link #current} and {@link #context}
 * as it goes); read by the watchdog, the heartbeat and the stopping thread, which interrupt the
 * runner only through {@link #cancel} while holding the monitor of the lease they just claimed.
 * {@link Slots#finish} ends it once, whoever gets there first.
 */
final class Run {
  final List<HeldLease> leases;
  private final AtomicBoolean finished = new AtomicBoolean();
  volatile Thread runner;
  volatile HeldLease current;
  volatile HandlerContext context;

  Run(List<HeldLease> leases) {
    this.leases = List.copyOf(leases);
  }

  /** Index of the first lease after {@code h} (the rest a cascade release gives back). */
  int after(HeldLease h) {
    return leases.indexOf(h) + 1;
  }

  boolean finished() {
    return finished.get();
  }

  /** True for the one caller that finishes the run (and frees its slot). */
  boolean markFinished() {
    return finished.compareAndSet(false, true);
  }

  /**
   * Tells the handler to stop: cancels {@code context} (when given) and interrupts the runner. Call
   * only holding the monitor of the lease just claimed.
   */
  void cancel(HandlerContext context) {
    if (context != null) {
      context.cancel();
    }
    Thread t = runner;
    if (t != null) {
      t.interrupt();
    }
  }
}
