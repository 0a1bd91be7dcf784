package io.redrive.trace;

/**
 * One delivery as a tracer sees it, from {@link MessageTracing#process}: the handler runs inside
 * {@link #activate()}, what happens to the lease is told as {@link DeliveryEvent}s, and {@link
 * #end()} closes it once the delivery is settled (or given up). Entered by the handler's thread,
 * then by whichever thread settles (the settle thread of a group commit, a watchdog timer); never
 * by two at once.
 */
public interface HandlerTrace {

  /**
   * Makes this delivery's trace current on the calling thread until the scope closes, so the
   * handler's own tracing (and every enqueue it makes) belongs to it.
   */
  TraceScope activate();

  /** Something happened to the delivery: leased, settled, to be retried, dead-lettered... */
  void event(DeliveryEvent event);

  /** The handler threw {@code error} (recorded before the failure is settled). */
  void failed(Throwable error);

  /** The delivery is over; later calls are ignored. */
  void end();
}
