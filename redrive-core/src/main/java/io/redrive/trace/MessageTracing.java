package io.redrive.trace;

import io.redrive.message.NewMessage;
import java.util.List;

/**
 * What the engine tells a tracer about messages: an enqueue ({@link #publish}), and each delivery a
 * handler runs ({@link #process}). Set with {@code Redrive.Builder#tracing}; the default {@link
 * #NONE} does nothing. Implementations must be thread-safe: every producer thread and every handler
 * thread calls them, and must not throw (a tracing failure must never fail an enqueue or a
 * delivery).
 *
 * <p>A trace crosses from producer to handler in the message's headers: {@link
 * PublishTrace#headers()} is added to each enqueued message that carries none of those headers
 * itself (so a {@code traceparent} an HTTP client sent wins), and {@link Delivery#headers()} hands
 * them back to {@link #process}. A workflow instance's trace context is captured when it starts
 * ({@link #startInstance}) and stored with the instance; each turn continues it ({@link #turn}),
 * and the activity messages a turn enqueues carry the turn's.
 */
public interface MessageTracing {

  /** Traces nothing and adds no header. */
  MessageTracing NONE = NoTracing.INSTANCE;

  /**
   * Called on the enqueuing thread before {@code messages} (one batch, one transaction) are
   * written; the answer is ended once the write committed or failed.
   */
  PublishTrace publish(List<NewMessage> messages);

  /**
   * Called on the handler's thread just before its handler runs (or when a worker settles a
   * delivery without one, e.g. an unregistered type). The handler runs inside {@link
   * HandlerTrace#activate()}; the trace ends once the delivery is settled.
   */
  HandlerTrace process(Delivery delivery);

  /**
   * Called on the starting thread before a client writes a new workflow instance; {@link
   * PublishTrace#headers()} is the trace context stored with the instance, which every turn of it
   * continues ({@link WorkflowTurn#context()}), and the answer is ended once the start was written
   * or failed. The default traces nothing.
   */
  default PublishTrace startInstance(WorkflowStart start) {
    return NoTracing.INSTANCE;
  }

  /**
   * Called on a turn's thread before the instance's code replays; the turn runs inside {@link
   * TurnTrace#activate()}, and the trace ends once the turn committed or gave up. The default
   * traces nothing.
   */
  default TurnTrace turn(WorkflowTurn turn) {
    return NoTracing.INSTANCE;
  }
}
