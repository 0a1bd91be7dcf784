package io.redrive.opentelemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.redrive.trace.PublishTrace;
import java.util.List;
import java.util.Map;

/**
 * One workflow start's {@code start <name>} span and the headers stored with the instance, which
 * every turn of it continues. The starting thread only; ended as soon as the start is written.
 */
final class StartSpan implements PublishTrace {
  private final Span span;
  private final Map<String, String> headers;

  StartSpan(Span span, Map<String, String> headers) {
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
    }
    span.end();
  }
}
