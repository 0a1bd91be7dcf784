package io.redrive.worker;

import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A settle handed over to the {@link SettleBatcher} and not yet answered: its command, whom to
 * tell, and whether the answer frees its run's slot. Answered exactly once, by whichever thread
 * committed it (its own flag; no lock).
 */
final class PendingSettle {
  /** Told the outcome of one settle. */
  @FunctionalInterface
  interface Callback {
    /**
     * @param settlement what the settle did or why its lease was lost; null when the store failed
     * @param error the store's failure, or null
     */
    void done(Settlement settlement, RuntimeException error);
  }

  final SettleCommand command;
  final boolean freesSlot;
  final long queuedAt = System.nanoTime();
  private final Callback callback;
  private final AtomicBoolean answered = new AtomicBoolean();

  /**
   * @param freesSlot whether its answer frees its run's slot (a lone message's settle does; a
   *     stream's runner waits for its answer and goes on)
   */
  PendingSettle(SettleCommand command, Callback callback, boolean freesSlot) {
    this.command = command;
    this.callback = callback;
    this.freesSlot = freesSlot;
  }

  /** Tells the outcome; true for the first answer, which is the only one told. */
  boolean answer(Settlement settlement, RuntimeException error) {
    if (!answered.compareAndSet(false, true)) {
      return false;
    }
    try {
      callback.done(settlement, error);
    } catch (RuntimeException e) {
      WorkerLog.LOG.error("settle callback for message {} failed", command.messageId(), e);
    }
    return true;
  }

  /** How many of {@code settles} free a slot once answered. */
  static int freeing(Collection<PendingSettle> settles) {
    int n = 0;
    for (PendingSettle p : settles) {
      if (p.freesSlot) {
        n++;
      }
    }
    return n;
  }
}
