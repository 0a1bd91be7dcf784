package io.redrive.opentelemetry;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.redrive.message.NewMessage;
import io.redrive.trace.Delivery;
import io.redrive.trace.HandlerTrace;
import io.redrive.trace.MessageTracing;
import io.redrive.trace.PublishTrace;
import io.redrive.trace.TurnTrace;
import io.redrive.trace.WorkflowStart;
import io.redrive.trace.WorkflowTurn;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Redrive's {@link MessageTracing} with OpenTelemetry: an enqueue is a {@code publish <queue>} span
 * (kind PRODUCER) whose context goes into each message's headers through the given {@code
 * OpenTelemetry}'s propagators (W3C {@code traceparent}/{@code tracestate} by default); each
 * delivery a handler runs is a {@code process <queue>} span (kind CONSUMER), a child of the
 * producer's span or linked to it ({@link ProducerRelation}), current while the handler runs, with
 * the lease and its settle as events. A workflow start is a {@code start <name>} span (kind
 * PRODUCER) whose context is stored with the instance; each turn is a {@code turn <name>} span
 * (kind INTERNAL) in that context, so an instance's turns, the activities they enqueue (whose
 * messages carry the turn's context) and its local activities are one trace. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * Redrive redrive = Redrive.builder(store).tracing(RedriveTracing.create(openTelemetry)).build();
 * }</pre>
 */
public final class RedriveTracing implements MessageTracing {
  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final ProducerRelation relation;

  private RedriveTracing(Builder b) {
    this.tracer = b.openTelemetry.getTracer(Names.SCOPE);
    this.propagator = b.openTelemetry.getPropagators().getTextMapPropagator();
    this.relation = b.relation;
  }

  /** Tracing with {@code openTelemetry}, handler spans children of their producer's. */
  public static RedriveTracing create(OpenTelemetry openTelemetry) {
    return builder(openTelemetry).build();
  }

  /** Starts building tracing with {@code openTelemetry}. */
  public static Builder builder(OpenTelemetry openTelemetry) {
    return new Builder(openTelemetry);
  }

  /**
   * Tracing with {@link GlobalOpenTelemetry} when an application or the Java agent has set it up,
   * else {@link MessageTracing#NONE} (nothing traced, no header added).
   */
  public static MessageTracing global() {
    return GlobalOpenTelemetry.isSet() ? create(GlobalOpenTelemetry.get()) : MessageTracing.NONE;
  }

  /** The relation of handler spans to their producer's. */
  public ProducerRelation producerRelation() {
    return relation;
  }

  @Override
  public PublishTrace publish(List<NewMessage> messages) {
    String queue = commonQueue(messages);
    SpanBuilder b =
        tracer
            .spanBuilder(queue == null ? "publish" : "publish " + queue)
            .setSpanKind(SpanKind.PRODUCER)
            .setAttribute(Names.MESSAGING_SYSTEM, Names.SYSTEM)
            .setAttribute(Names.OPERATION_TYPE, "send")
            .setAttribute(Names.OPERATION_NAME, "publish");
    if (queue != null) {
      b.setAttribute(Names.DESTINATION, queue);
    }
    if (messages.size() > 1) {
      b.setAttribute(Names.BATCH_COUNT, (long) messages.size());
    } else if (messages.get(0) != null) {
      b.setAttribute(Names.MESSAGE_TYPE, messages.get(0).type());
    }
    Span span = b.startSpan();
    Map<String, String> headers = new HashMap<>();
    propagator.inject(Context.current().with(span), headers, HeaderCarrier.INSTANCE);
    return new PublishSpan(span, headers, true);
  }

  @Override
  public HandlerTrace process(Delivery d) {
    Context producer = propagator.extract(Context.root(), d.headers(), HeaderCarrier.INSTANCE);
    SpanContext producerSpan = Span.fromContext(producer).getSpanContext();
    SpanBuilder b =
        tracer
            .spanBuilder("process " + d.queue())
            .setSpanKind(SpanKind.CONSUMER)
            .setAttribute(Names.MESSAGING_SYSTEM, Names.SYSTEM)
            .setAttribute(Names.DESTINATION, d.queue())
            .setAttribute(Names.OPERATION_TYPE, "process")
            .setAttribute(Names.OPERATION_NAME, "process")
            .setAttribute(Names.MESSAGE_ID, d.messageId())
            .setAttribute(Names.MESSAGE_TYPE, d.type())
            .setAttribute(Names.ATTEMPT, (long) d.attempt())
            .setAttribute(Names.MAX_ATTEMPTS, (long) d.maxAttempts());
    if (d.worker() != null) {
      b.setAttribute(Names.WORKER, d.worker());
    }
    if (relation == ProducerRelation.CHILD) {
      b.setParent(producer);
    } else {
      b.setNoParent();
      if (producerSpan.isValid()) {
        b.addLink(producerSpan);
      }
    }
    Span span = b.startSpan();
    return new ProcessSpan(span, producer.with(span));
  }

  @Override
  public PublishTrace startInstance(WorkflowStart start) {
    SpanBuilder b =
        tracer
            .spanBuilder("start " + start.name())
            .setSpanKind(SpanKind.PRODUCER)
            .setAttribute(Names.INSTANCE_ID, start.instanceId())
            .setAttribute(Names.WORKFLOW_NAME, start.name());
    if (!start.parent().isEmpty()) {
      // The starter's own context (an HTTP client's traceparent), not this thread's.
      b.setParent(propagator.extract(Context.root(), start.parent(), HeaderCarrier.INSTANCE));
    }
    if (start.version() != null) {
      b.setAttribute(Names.WORKFLOW_VERSION, start.version());
    }
    Span span = b.startSpan();
    Map<String, String> headers = new HashMap<>();
    propagator.inject(Context.current().with(span), headers, HeaderCarrier.INSTANCE);
    return new PublishSpan(span, headers, false);
  }

  @Override
  public TurnTrace turn(WorkflowTurn turn) {
    Context instance = propagator.extract(Context.root(), turn.context(), HeaderCarrier.INSTANCE);
    SpanBuilder b =
        tracer
            .spanBuilder("turn " + turn.name())
            .setSpanKind(SpanKind.INTERNAL)
            .setParent(instance)
            .setAttribute(Names.INSTANCE_ID, turn.instanceId())
            .setAttribute(Names.WORKFLOW_NAME, turn.name())
            .setAttribute(Names.EXECUTION_ID, (long) turn.executionId())
            .setAttribute(Names.ATTEMPT, (long) turn.attempt());
    if (turn.version() != null) {
      b.setAttribute(Names.WORKFLOW_VERSION, turn.version());
    }
    Span span = b.startSpan();
    return new TurnSpan(tracer, propagator, span, instance.with(span));
  }

  /** The queue every message of the batch goes to, or null when they go to several. */
  private static String commonQueue(List<NewMessage> messages) {
    String queue = null;
    for (NewMessage m : messages) {
      if (m == null || (queue != null && !queue.equals(m.queue()))) {
        return null;
      }
      queue = m.queue();
    }
    return queue;
  }

  /** Builder of {@link RedriveTracing}; not thread-safe. */
  public static final class Builder {
    private final OpenTelemetry openTelemetry;
    private ProducerRelation relation = ProducerRelation.CHILD;

    private Builder(OpenTelemetry openTelemetry) {
      if (openTelemetry == null) {
        throw new IllegalArgumentException("openTelemetry: is required");
      }
      this.openTelemetry = openTelemetry;
    }

    /** How handler spans relate to their producer's (default {@link ProducerRelation#CHILD}). */
    public Builder producerRelation(ProducerRelation value) {
      if (value == null) {
        throw new IllegalArgumentException("producerRelation: is required");
      }
      this.relation = value;
      return this;
    }

    public RedriveTracing build() {
      return new RedriveTracing(this);
    }
  }
}
