package io.redrive.server.http;

import io.javalin.http.Context;
import io.redrive.trace.TraceParent;
import java.util.HashMap;
import java.util.Map;

/**
 * The W3C trace context an HTTP client sent with an enqueue or a workflow start ({@code
 * traceparent}, {@code tracestate}), carried onto the messages as headers so their handlers join
 * the client's trace. A malformed {@code traceparent} is ignored (and its {@code tracestate} with
 * it). Stateless.
 */
final class RequestTrace {
  private RequestTrace() {}

  /** The request's valid trace headers, under their message-header names; empty when none. */
  static Map<String, String> of(Context ctx) {
    String parent = ctx.header(TraceParent.HEADER);
    if (TraceParent.parse(parent).isEmpty()) {
      return Map.of();
    }
    String state = ctx.header(TraceParent.STATE_HEADER);
    return state == null || state.isBlank()
        ? Map.of(TraceParent.HEADER, parent.strip())
        : Map.of(TraceParent.HEADER, parent.strip(), TraceParent.STATE_HEADER, state.strip());
  }

  /**
   * {@code headers} (a message body's own, maybe null) with {@code trace} added, unless the body
   * carries a trace header of its own: a message's own trace context wins over the request's.
   */
  static Map<String, String> onto(Map<String, String> headers, Map<String, String> trace) {
    if (trace.isEmpty()) {
      return headers;
    }
    if (headers == null) {
      return trace;
    }
    if (headers.containsKey(TraceParent.HEADER) || headers.containsKey(TraceParent.STATE_HEADER)) {
      return headers;
    }
    Map<String, String> merged = new HashMap<>(headers);
    merged.putAll(trace);
    return merged;
  }
}
