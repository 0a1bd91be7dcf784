package io.redrive.opentelemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.redrive.trace.PublishTrace;
import java.util.List;
import java.util.Map;

/** One enqueue's {@code publish <queue>} span and the headers that carry it. Enqueuing thread. */
final class PublishSpan implements PublishTrace {
  private final Span span;
  private final Map<String, String> headers;

  PublishSpan(Span span, Map<String, String> headers) {
    this.span = span;
    this.headers = Map.copyOf(headers);
  }

  @Override
  public Map<String, String> headers() {
    return headers;
  }

  @Override
  public void end(List<String> ids, RuntimeException error) {
    if (error != null) {
      span.recordException(error);
      span.setStatus(StatusCode.ERROR, error.getClass().getSimpleName());
    } else if (ids.size() == 1) {
      span.setAttribute(Names.MESSAGE_ID, ids.get(0));
    }
    span.end();
  }
}
