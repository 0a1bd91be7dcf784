package io.redrive.opentelemetry;

/** How a handler's span relates to the span that enqueued its message. */
public enum ProducerRelation {
  /**
   * The handler's span is a child of the producer's: an HTTP request, its enqueue and the handler
   * are one trace (the default).
   */
  CHILD,
  /**
   * The handler's span starts a trace of its own with a link to the producer's: keeps long-lived or
   * fan-out traces small, at the cost of following the link to see where a message came from.
   */
  LINK
}
