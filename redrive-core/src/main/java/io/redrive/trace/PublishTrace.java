package io.redrive.trace;

import java.util.List;
import java.util.Map;

/**
 * One enqueue as a tracer sees it, from {@link MessageTracing#publish}: the headers that carry the
 * producer's context, then {@link #end} once. Used by the enqueuing thread only.
 */
public interface PublishTrace {

  /**
   * Headers to add to each message of the batch that has none of them (e.g. {@code traceparent} and
   * {@code tracestate}); empty when there is nothing to carry.
   */
  Map<String, String> headers();

  /**
   * The enqueue committed ({@code error} null; {@code ids} the messages' ids in batch order) or
   * failed ({@code error} set, {@code ids} empty).
   */
  void end(List<String> ids, RuntimeException error);
}
