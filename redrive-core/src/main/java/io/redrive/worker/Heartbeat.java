package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.error.LeaseLostException;
import io.redrive.error.LeaseNotFoundException;
import io.redrive.lease.LeasedMessage;
import java.time.Duration;

/**
 * Renews every lease the worker holds, each {@code leaseTimeout/3}, until it is settled; gives up
 * on a handler that has run for {@code maxRenewal} (its lease is left to expire, the handler is
 * interrupted and its slot freed, so a hung handler cannot starve the worker).
 *
 * <p>{@link #renewAll} runs on one timer thread at a time (fixed-delay schedule). Giving up claims
 * the lease, and interrupts its runner, under the lease's monitor.
 */
final class Heartbeat {
  private final Redrive redrive;
  private final WorkerConfig config;
  private final Duration leaseTimeout;
  private final Slots slots;
  private final Settler settler;

  Heartbeat(
      Redrive redrive, WorkerConfig config, Duration leaseTimeout, Slots slots, Settler settler) {
    this.redrive = redrive;
    this.config = config;
    this.leaseTimeout = leaseTimeout;
    this.slots = slots;
    this.settler = settler;
  }

  void renewAll() {
    long maxNanos = config.maxRenewal().toNanos();
    slots.forEachHeld((h, run) -> renew(h, run, maxNanos));
  }

  private void renew(HeldLease h, Run run, long maxNanos) {
    if (h.lost || h.renewalStopped) {
      return;
    }
    LeasedMessage m = h.message;
    // A claimed lease is being settled right now (a completion may wait for a group commit, a
    // slow store may delay a fail): keep it alive until the settle lands. Only a running,
    // unclaimed handler can hang; a stream message waiting for its turn keeps its lease.
    if (!h.claimed() && h.started && System.nanoTime() - h.startedAtNanos > maxNanos) {
      h.renewalStopped = true;
      giveUpHung(h, run);
      WorkerLog.LOG.warn(
          "worker {} stopped renewing the lease of message {} (type {}, attempt {}/{}) after"
              + " {}: its handler seems stuck; the lease will expire and the message be"
              + " delivered again",
          config.id(),
          m.id(),
          m.type(),
          m.attempt(),
          m.maxAttempts(),
          config.maxRenewal());
      return;
    }
    try {
      redrive.renew(m.token(), leaseTimeout);
    } catch (LeaseLostException | LeaseNotFoundException e) {
      if (!h.claimed()) {
        h.lost = true;
        WorkerLog.LOG.warn(
            "worker {} lost the lease of message {} (type {}): {}",
            config.id(),
            m.id(),
            m.type(),
            e.getMessage());
      }
    } catch (RuntimeException e) {
      WorkerLog.LOG.warn(
          "worker {} could not renew the lease of {}: {}", config.id(), m.id(), e.toString());
    }
  }

  /**
   * A handler held its lease for {@code maxRenewal}: stop renewing and let the lease expire (the
   * next delivery counts it as LEASE_EXPIRED), interrupt the handler and free its slot.
   */
  private void giveUpHung(HeldLease h, Run run) {
    synchronized (h) {
      if (!h.claim()) {
        return;
      }
      HandlerContext context = run.context;
      if (context != null && run.current == h) {
        run.cancel(context);
      }
    }
    slots.settled(h);
    settler.releaseRest(run, run.after(h), "an earlier message of the stream hung");
    slots.finish(run);
  }
}
