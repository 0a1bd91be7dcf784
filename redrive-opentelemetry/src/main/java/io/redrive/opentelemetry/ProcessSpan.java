package io.redrive.opentelemetry;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.redrive.trace.DeliveryEvent;
import io.redrive.trace.HandlerTrace;
import io.redrive.trace.TraceScope;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One delivery's {@code process <queue>} span: current while the handler runs, given the delivery's
 * events, ended once when the delivery is settled. The handler's thread, then the settling thread
 * (never both at once); the span itself is thread-safe.
 */
final class ProcessSpan implements HandlerTrace {
  private final Span span;
  private final Context context;
  private final AtomicBoolean ended = new AtomicBoolean();

  ProcessSpan(Span span, Context context) {
    this.span = span;
    this.context = context;
  }

  @Override
  public TraceScope activate() {
    Scope scope = context.makeCurrent();
    return scope::close;
  }

  @Override
  public void event(DeliveryEvent e) {
    AttributesBuilder a = Attributes.builder().put(Names.ATTEMPT, (long) e.attempt());
    if (e.worker() != null) {
      a.put(Names.WORKER, e.worker());
    }
    if (e.reason() != null) {
      a.put(Names.REASON, e.reason().name());
    }
    if (e.detail() != null) {
      a.put(Names.DETAIL, e.detail());
    }
    if (e.delay() != null) {
      a.put(Names.DELAY_MS, Math.max(0, e.delay().toMillis()));
    }
    if (e.deadLetterQueue() != null) {
      a.put(Names.DEAD_LETTER_QUEUE, e.deadLetterQueue());
    }
    span.addEvent(e.kind().eventName(), a.build());
    switch (e.kind()) {
      case RETRY_SCHEDULED, DEAD_LETTERED, TIMED_OUT, LEASE_LOST, SETTLE_FAILED ->
          span.setStatus(
              StatusCode.ERROR,
              e.kind().eventName() + (e.reason() != null ? ": " + e.reason().name() : ""));
      default -> {}
    }
  }

  @Override
  public void failed(Throwable error) {
    span.recordException(error);
  }

  @Override
  public void end() {
    if (ended.compareAndSet(false, true)) {
      span.end();
    }
  }
}
