package io.redrive;

import io.redrive.message.EnqueueResult;
import io.redrive.message.NewMessage;
import io.redrive.trace.MessageTracing;
import io.redrive.trace.PublishTrace;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Wraps an enqueue in the engine's {@link MessageTracing}: the trace headers go onto each message
 * that carries none of them (a caller's own {@code traceparent}, e.g. from an HTTP request, wins),
 * and the publish trace ends with the write. Stateless; any thread.
 */
final class TraceHeaders {
  private TraceHeaders() {}

  static List<EnqueueResult> publish(
      MessageTracing tracing,
      List<NewMessage> messages,
      Function<List<NewMessage>, List<EnqueueResult>> write) {
    if (tracing == MessageTracing.NONE || messages == null || messages.isEmpty()) {
      return write.apply(messages);
    }
    PublishTrace trace = tracing.publish(messages);
    List<EnqueueResult> results;
    try {
      results = write.apply(add(messages, trace.headers()));
    } catch (RuntimeException e) {
      trace.end(List.of(), e);
      throw e;
    }
    trace.end(results.stream().map(EnqueueResult::id).toList(), null);
    return results;
  }

  /** {@code messages} with {@code headers} added to each that has none of them. */
  static List<NewMessage> add(List<NewMessage> messages, Map<String, String> headers) {
    if (headers.isEmpty()) {
      return messages;
    }
    List<NewMessage> out = new ArrayList<>(messages.size());
    for (NewMessage m : messages) {
      out.add(m == null || carriesAny(m, headers) ? m : with(m, headers));
    }
    return out;
  }

  private static boolean carriesAny(NewMessage m, Map<String, String> headers) {
    for (String name : headers.keySet()) {
      if (m.headers().containsKey(name)) {
        return true;
      }
    }
    return false;
  }

  private static NewMessage with(NewMessage m, Map<String, String> headers) {
    Map<String, String> merged = new HashMap<>(m.headers());
    merged.putAll(headers);
    return m.withHeaders(merged);
  }
}
