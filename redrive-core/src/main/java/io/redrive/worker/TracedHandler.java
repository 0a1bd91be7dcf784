package io.redrive.worker;

import io.redrive.lease.LeasedMessage;
import io.redrive.lease.SettleCommand;
import io.redrive.lease.SettleResult;
import io.redrive.lease.Settlement;
import io.redrive.message.MessageState;
import io.redrive.trace.Delivery;
import io.redrive.trace.DeliveryEvent;
import io.redrive.trace.DeliveryEvent.Kind;
import io.redrive.trace.HandlerTrace;
import io.redrive.trace.MessageTracing;
import io.redrive.trace.TraceScope;
import java.time.Clock;
import java.time.Duration;

/**
 * A handler call inside its delivery's trace ({@link MessageTracing#process}): {@link #start} on
 * the lease, {@link #call} around the handler (so the handler's own spans and enqueues belong to
 * the delivery), {@link #settled} with the settle's answer, which ends the trace. Stateless; the
 * worker's runner and settler use it, and so may any other code of this package that runs a leased
 * message's handler (e.g. on the caller's thread).
 */
final class TracedHandler {
  private TracedHandler() {}

  /** What the handler did: returned {@code result} (maybe null) or threw {@code error}. */
  record Call(HandlerResult result, Throwable error) {}

  /** Starts the trace of {@code m}'s delivery by {@code worker}, with its LEASED event. */
  static HandlerTrace start(MessageTracing tracing, LeasedMessage m, String worker) {
    HandlerTrace trace =
        tracing.process(
            new Delivery(
                m.queue(), m.id(), m.type(), m.headers(), m.attempt(), m.maxAttempts(), worker));
    trace.event(DeliveryEvent.of(Kind.LEASED, m.attempt(), worker));
    return trace;
  }

  /** Calls {@code handler} inside {@code trace}; a throw is recorded on the trace and returned. */
  static Call call(Handler handler, HandlerContext context, HandlerTrace trace) {
    try (TraceScope scope = trace.activate()) {
      return new Call(handler.handle(context), null);
    } catch (Throwable t) { // every failure counts, even Errors, so the attempt is recorded
      trace.failed(t);
      return new Call(null, t);
    }
  }

  /**
   * Tells {@code trace} (null: not traced) how the settle of {@code m}'s lease went — {@code
   * settled}, or the {@code error} that kept it from being written — and ends it.
   */
  static void settled(
      HandlerTrace trace,
      LeasedMessage m,
      String worker,
      Settlement settled,
      RuntimeException error,
      Clock clock) {
    if (trace == null) {
      return;
    }
    try {
      trace.event(event(m, worker, settled, error, clock));
    } finally {
      trace.end();
    }
  }

  /** Tells {@code trace} (null: not traced) that the handler ran past its timeout. */
  static void timedOut(HandlerTrace trace, LeasedMessage m, String worker, SettleCommand.Fail f) {
    if (trace != null) {
      trace.event(
          new DeliveryEvent(
              Kind.TIMED_OUT, m.attempt(), worker, f.reason(), f.message(), null, null));
    }
  }

  private static DeliveryEvent event(
      LeasedMessage m, String worker, Settlement settled, RuntimeException error, Clock clock) {
    int attempt = m.attempt();
    if (error != null) {
      return new DeliveryEvent(
          Kind.SETTLE_FAILED, attempt, worker, null, error.toString(), null, null);
    }
    if (!settled.settled()) {
      return new DeliveryEvent(
          Kind.LEASE_LOST, attempt, worker, null, String.valueOf(settled.lost()), null, null);
    }
    SettleResult r = settled.result();
    SettleCommand command = settled.command();
    if (r.state() == MessageState.COMPLETED) {
      return DeliveryEvent.of(Kind.COMPLETED, attempt, worker);
    }
    Duration delay =
        r.visibleAt() == null ? null : Duration.between(clock.instant(), r.visibleAt());
    if (command instanceof SettleCommand.Fail f) {
      return r.state() == MessageState.DEAD
          ? new DeliveryEvent(
              Kind.DEAD_LETTERED,
              attempt,
              worker,
              r.deadReason() != null ? r.deadReason() : f.reason(),
              f.message(),
              null,
              r.deadLetterQueue())
          : new DeliveryEvent(
              Kind.RETRY_SCHEDULED, attempt, worker, f.reason(), f.message(), delay, null);
    }
    if (command instanceof SettleCommand.Abandon a) {
      return new DeliveryEvent(Kind.ABANDONED, attempt, worker, a.reason(), a.note(), delay, null);
    }
    return new DeliveryEvent(Kind.ABANDONED, attempt, worker, null, null, delay, null);
  }
}
