package io.redrive.trace;

import java.util.Map;

/**
 * One workflow turn as a tracer sees it, from {@link MessageTracing#turn}: the orchestration's code
 * runs inside {@link #activate()}, the activities and child instances the turn starts carry {@link
 * #headers()}, each local activity it runs is a {@link #localActivity} of its own, and {@link
 * #end()} closes it once the turn committed or gave up. Entered by the turn's thread, and by the
 * threads that run its local activities; {@link #end()} once, after them.
 */
public interface TurnTrace {

  /** Makes the turn's trace current on the calling thread until the scope closes. */
  TraceScope activate();

  /**
   * Headers that carry the turn's trace context (e.g. {@code traceparent}), for the activity
   * messages and child instances it starts; empty when there is nothing to carry.
   */
  Map<String, String> headers();

  /** A local activity the turn runs, traced as a child of the turn; end it when it returns. */
  TurnTrace localActivity(String name, long seq, int attempt);

  /**
   * The turn could not be decided or committed, or the local activity's try failed: {@code reason}
   * (e.g. {@code HANDLER_ERROR}, {@code TURN_TIMEOUT}) and a message, or null.
   */
  void failed(String reason, String message);

  /** The turn is over; later calls are ignored. */
  void end();
}
