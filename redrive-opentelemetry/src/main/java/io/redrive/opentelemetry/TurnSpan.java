package io.redrive.opentelemetry;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.redrive.trace.TraceScope;
import io.redrive.trace.TurnTrace;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A workflow turn's {@code turn <name>} span, or one of its {@code local activity <name>} spans:
 * current while the code runs, its context in the headers of what the turn starts. The turn's
 * thread and its local activities' threads; the span itself is thread-safe.
 */
final class TurnSpan implements TurnTrace {
  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final Span span;
  private final Context context;
  private final AtomicBoolean ended = new AtomicBoolean();

  TurnSpan(Tracer tracer, TextMapPropagator propagator, Span span, Context context) {
    this.tracer = tracer;
    this.propagator = propagator;
    this.span = span;
    this.context = context;
  }

  @Override
  public TraceScope activate() {
    Scope scope = context.makeCurrent();
    return scope::close;
  }

  @Override
  public Map<String, String> headers() {
    Map<String, String> headers = new HashMap<>();
    propagator.inject(context, headers, HeaderCarrier.INSTANCE);
    return headers;
  }

  @Override
  public TurnTrace localActivity(String name, long seq, int attempt) {
    Span local =
        tracer
            .spanBuilder("local activity " + name)
            .setSpanKind(SpanKind.INTERNAL)
            .setParent(context)
            .setAttribute(Names.ACTIVITY_NAME, name)
            .setAttribute(Names.ACTIVITY_SEQ, seq)
            .setAttribute(Names.ATTEMPT, (long) attempt)
            .startSpan();
    return new TurnSpan(tracer, propagator, local, context.with(local));
  }

  @Override
  public void failed(String reason, String message) {
    if (reason != null) {
      span.setAttribute(Names.REASON, reason);
    }
    if (message != null) {
      span.setAttribute(Names.DETAIL, message);
    }
    span.setStatus(StatusCode.ERROR, reason == null ? "failed" : reason);
  }

  @Override
  public void end() {
    if (ended.compareAndSet(false, true)) {
      span.end();
    }
  }
}
