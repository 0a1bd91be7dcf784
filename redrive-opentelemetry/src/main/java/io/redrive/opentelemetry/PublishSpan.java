package io.redrive.opentelemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.redrive.trace.PublishTrace;
import java.util.List;
import java.util.Map;

/**
 * A span that hands its context on in headers: one enqueue's {@code publish <queue>} (the headers
 * travel with the messages), or one workflow start's {@code start <name>} (the headers are stored
 * with the instance, and every turn continues them). The calling thread only; ended as soon as the
 * write is done.
 */
final class PublishSpan implements PublishTrace {
  private final Span span;
  private final Map<String, String> headers;
  private final boolean namesMessage;

  /**
   * @param namesMessage whether a single written id is a message id (an enqueue), to be set as
   *     {@code messaging.message.id}; a start's id is the instance's, already an attribute
   */
  PublishSpan(Span span, Map<String, String> headers, boolean namesMessage) {
    this.span = span;
    this.headers = Map.copyOf(headers);
    this.namesMessage = namesMessage;
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
    } else if (namesMessage && ids.size() == 1) {
      span.setAttribute(Names.MESSAGE_ID, ids.get(0));
    }
    span.end();
  }
}
