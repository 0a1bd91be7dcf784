package io.redrive.worker;

import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.lease.LeaseToken;
import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.Settlement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns an outcome into a settle: the one class of the worker that completes, fails, abandons or
 * releases its leases (through the {@link SettleBatcher} or {@link Redrive}), logs how that went
 * and stops holding the lease afterwards. It settles only claimed leases: its callers claim them,
 * except for an unregistered type and a cascade release, which this class claims itself.
 *
 * <p>Entered by the runners, the watchdog and heartbeat timers and the stopping thread; the
 * callbacks of handed-over settles run on the settle thread. No lock and no state of its own.
 */
final class Settler {
  private final Redrive redrive;
  private final WorkerConfig config;
  private final WorkerMetrics metrics;
  private final SettleBatcher settles;
  private final Slots slots;
  private final WorkerLog log;

  Settler(
      Redrive redrive,
      WorkerConfig config,
      WorkerMetrics metrics,
      SettleBatcher settles,
      Slots slots,
      WorkerLog log) {
    this.redrive = redrive;
    this.config = config;
    this.metrics = metrics;
    this.settles = settles;
    this.slots = slots;
    this.log = log;
  }

  /**
   * Completes a handler's message, with its result (JSON) or none. A lone message's completion is
   * handed to the group commit without waiting ({@code async}: the answer finishes the run); a
   * stream's runner waits, since the next message may only run after it.
   */
  Ran complete(Run run, HeldLease h, String result, long took, boolean async) {
    LeasedMessage m = h.message;
    SettleCommand complete = new SettleCommand.Complete(h.token, result);
    if (async) {
      settles.settleLater(
          complete,
          (settled, error) -> {
            try {
              completed(h, settled, error, took);
            } finally {
              slots.settled(h);
              slots.finish(run);
            }
          });
      return Ran.SETTLING;
    }
    Settlement settled = null;
    RuntimeException failure = null;
    try {
      settled = settles.settle(complete);
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      return completed(h, settled, failure, took) ? Ran.COMPLETED : Ran.NOT_COMPLETED;
    } finally {
      slots.settled(h);
    }
  }

  /** Reports a completion's outcome; true when it completed. */
  private boolean completed(HeldLease h, Settlement settled, RuntimeException error, long took) {
    LeasedMessage m = h.message;
    traced(h, settled, error);
    if (error != null) {
      log.couldNotSettle(m, error);
      return false;
    }
    if (!settled.settled()) {
      log.leaseLost(m);
      return false;
    }
    metrics.handlerDuration(m.type(), "completed", took);
    return true;
  }

  /**
   * Fails a handler's message. A lone message's failure is handed to the group commit without
   * waiting ({@code async}, then true: the answer finishes the run); a stream's runner waits, since
   * it releases the rest only afterwards.
   */
  boolean fail(
      Run run,
      HeldLease h,
      HandlerRegistration reg,
      HandlerContext context,
      HandlerResult result,
      Throwable error,
      long took,
      boolean async) {
    LeasedMessage m = h.message;
    SettleCommand fail;
    try {
      FailureClassifier classifier =
          reg.classifier() != null ? reg.classifier() : config.classifier();
      fail = FailRequests.of(h.token, classifier, context, result, error);
    } catch (RuntimeException e) { // a classifier bug: the lease expires and is redelivered
      log.couldNotSettle(m, e);
      traced(h, null, e);
      slots.settled(h);
      return false;
    }
    metrics.handlerDuration(m.type(), FailRequests.outcome(result), took);
    if (async) {
      settles.settleLater(
          fail,
          (settled, failure) -> {
            try {
              failed(h, fail, settled, failure);
            } finally {
              slots.settled(h);
              slots.finish(run);
            }
          });
      return true;
    }
    try {
      failed(h, fail, settles.settle(fail), null);
    } catch (RuntimeException e) {
      log.couldNotSettle(m, e);
      traced(h, null, e);
    } finally {
      slots.settled(h);
    }
    return false;
  }

  /** Reports a failure's outcome. */
  private void failed(HeldLease h, SettleCommand fail, Settlement settled, RuntimeException error) {
    LeasedMessage m = h.message;
    traced(h, settled, error);
    if (error != null) {
      log.couldNotSettle(m, error);
    } else if (!settled.settled()) {
      log.leaseLost(m);
    } else {
      log.failed(m, fail, settled.result());
    }
  }

  /**
   * No handler here for the message's type: failed as UNREGISTERED_HANDLER, which the engine turns
   * into an abandon with this worker's unregistered backoff (and logs), the same for every worker.
   */
  void unregistered(HeldLease h) {
    LeasedMessage m = h.message;
    if (!h.claim()) {
      return;
    }
    try {
      Settlement settled =
          redrive
              .settle(
                  List.of(
                      new SettleCommand.Fail(
                          h.token,
                          FailureReason.UNREGISTERED_HANDLER,
                          "no handler for type " + m.type() + " on worker " + config.id(),
                          null,
                          config.unregisteredBackoff().delayAfter(m.attempt()),
                          0L,
                          null)))
              .get(0);
      traced(h, settled, null);
    } catch (RuntimeException e) {
      traced(h, null, e);
      WorkerLog.LOG.warn("could not abandon unhandled message {}: {}", m.id(), e.toString());
    } finally {
      slots.settled(h);
    }
  }

  /** Fails as TIMEOUT_EXCEEDED the claimed lease of a handler that ran past {@code timeout}. */
  void timedOut(HeldLease h, HandlerContext context, Duration timeout) {
    LeasedMessage m = h.message;
    try {
      SettleCommand.Fail fail =
          new SettleCommand.Fail(
              h.token,
              FailureReason.TIMEOUT_EXCEEDED,
              "handler for type " + m.type() + " ran past its timeout of " + timeout,
              null,
              null,
              context.progress(),
              null);
      metrics.handlerDuration(m.type(), "timed_out", timeout.toNanos());
      TracedHandler.timedOut(h.trace, m, config.id(), fail);
      failed(h, fail, redrive.settle(List.of(fail)).get(0), null);
    } catch (RuntimeException e) {
      traced(h, null, e);
      WorkerLog.LOG.warn("could not fail timed-out message {}: {}", m.id(), e.toString());
    } finally {
      slots.settled(h);
    }
  }

  /** Gives back, attempt refunded, the claimed lease of a handler cut off at shutdown. */
  void abandonAtShutdown(HeldLease h) {
    try {
      Settlement s =
          redrive
              .settle(
                  List.of(
                      new SettleCommand.Abandon(
                          h.token,
                          Duration.ZERO,
                          true,
                          "worker " + config.id() + " shut down before the handler finished",
                          null)))
              .get(0);
      traced(h, s, null);
      if (!s.settled()) {
        WorkerLog.LOG.warn(
            "could not give back message {} at shutdown: lease lost ({})",
            h.message.id(),
            s.lost());
      }
    } catch (RuntimeException e) {
      traced(h, null, e);
      WorkerLog.LOG.warn(
          "could not give back message {} at shutdown: {}", h.message.id(), e.toString());
    }
    slots.settled(h);
  }

  /** Ends the delivery's trace (if any) with the settle's answer or the error that stopped it. */
  private void traced(HeldLease h, Settlement settled, RuntimeException error) {
    TracedHandler.settled(h.trace, h.message, config.id(), settled, error, redrive.clock());
  }

  /** Gives back, refunded, the leases of a run from index {@code from} on (cascade release). */
  void releaseRest(Run run, int from, String why) {
    release(slots.claimFrom(run, from), why);
  }

  /**
   * Gives back claimed leases with their attempts refunded, each on its own terms: one lost lease
   * does not keep the others.
   */
  void release(List<LeaseToken> tokens, String why) {
    if (tokens.isEmpty()) {
      return;
    }
    int released = 0;
    try {
      List<SettleCommand> commands = new ArrayList<>(tokens.size());
      for (LeaseToken token : tokens) {
        commands.add(new SettleCommand.Release(token));
      }
      for (Settlement s : redrive.settle(commands)) {
        if (s.settled()) {
          released++;
        } else {
          WorkerLog.LOG.debug("could not release {}: {}", s.command().token(), s.lost());
        }
      }
    } catch (RuntimeException e) {
      WorkerLog.LOG.warn(
          "could not release {} message(s) of queue {}: {}",
          tokens.size(),
          config.queue(),
          e.toString());
      return;
    }
    WorkerLog.LOG.info(
        "worker {} released {} message(s) of queue {}: {}",
        config.id(),
        released,
        config.queue(),
        why);
  }
}
