/**
 * Tracing without a tracing library: the small SPI ({@link io.redrive.trace.MessageTracing}) the
 * engine and the worker call when a message is enqueued, leased, handled and settled, so that a
 * tracing module (redrive-opentelemetry) can carry a trace from producer to handler through the
 * message's headers. The default, {@link io.redrive.trace.MessageTracing#NONE}, does nothing and
 * adds no header. {@link io.redrive.trace.TraceParent} reads a W3C {@code traceparent} header (for
 * showing a message's trace id) without any library either.
 */
package io.redrive.trace;
