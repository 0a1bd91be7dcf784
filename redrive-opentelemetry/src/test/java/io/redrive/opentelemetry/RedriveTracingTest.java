package io.redrive.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.redrive.Redrive;
import io.redrive.failure.FailureReason;
import io.redrive.message.NewMessage;
import io.redrive.queue.QueuePolicy;
import io.redrive.store.Store;
import io.redrive.testkit.ControllableClock;
import io.redrive.worker.Handler;
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real engine and a real worker on each store, traced into the SDK's in-memory exporter: an
 * enqueue inside a span, the handler's span, a retry and a dead letter, child and link relations.
 */
class RedriveTracingTest {
  private static final String QUEUE = "jobs";
  private static final String TYPE = "work";
  private static final Duration AT_MOST = Duration.ofSeconds(20);
  private static final Duration COOLDOWN = Duration.ofMinutes(5);

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetry otel =
      OpenTelemetrySdk.builder()
          .setTracerProvider(provider)
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
  private final Tracer app = otel.getTracer("app");
  private final ControllableClock clock = ControllableClock.startingAtEpochOfTests();
  private final List<AutoCloseable> open = new ArrayList<>();
  private Redrive redrive;

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    provider.close();
  }

  private void engine(TestStores kind, RedriveTracing tracing) {
    Store store = kind.open();
    open.add(store);
    redrive = Redrive.builder(store).clock(clock).tracing(tracing).build();
    redrive.createQueue(
        QUEUE,
        QueuePolicy.defaults().withRetry(2, COOLDOWN).withLeaseTimeout(Duration.ofSeconds(30)));
  }

  private void work(Handler handler) {
    Worker worker =
        Worker.builder(redrive, QUEUE)
            .id("w1")
            .pollInterval(Duration.ofMillis(5), Duration.ofMillis(20))
            .shutdownGrace(Duration.ofSeconds(1))
            .handler(TYPE, handler)
            .build()
            .start();
    open.add(() -> worker.stop(Duration.ofSeconds(1)));
  }

  /** Enqueues one message inside an application span; answers that span's context. */
  private SpanContext enqueueInsideRequest() {
    Span request = app.spanBuilder("POST /orders").startSpan();
    try (Scope ignored = request.makeCurrent()) {
      redrive.enqueue(NewMessage.builder(QUEUE, TYPE).payload("{}").build());
    } finally {
      request.end();
    }
    return request.getSpanContext();
  }

  private List<SpanData> awaitSpans(String name, int count) {
    Awaitility.await().atMost(AT_MOST).until(() -> spans(name).size() >= count);
    return spans(name);
  }

  private List<SpanData> spans(String name) {
    return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }

  private static EventData event(SpanData span, String name) {
    return span.getEvents().stream()
        .filter(e -> e.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no event " + name + " in " + span.getEvents()));
  }

  @ParameterizedTest
  @EnumSource(TestStores.class)
  void enqueueInsideASpan_handlerSpanIsAChildOfThePublishSpan_inOneTrace(TestStores kind) {
    engine(kind, RedriveTracing.create(otel));
    SpanContext request = enqueueInsideRequest();
    AtomicReference<SpanContext> current = new AtomicReference<>();
    AtomicReference<Map<String, String>> headers = new AtomicReference<>();

    work(
        ctx -> {
          current.set(Span.current().getSpanContext());
          headers.set(ctx.headers());
          return HandlerResult.complete();
        });

    SpanData process = awaitSpans("process " + QUEUE, 1).get(0);
    SpanData publish = spans("publish " + QUEUE).get(0);
    assertThat(publish.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(publish.getTraceId()).isEqualTo(request.getTraceId());
    assertThat(publish.getParentSpanId()).isEqualTo(request.getSpanId());
    assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.system")))
        .isEqualTo("redrive");
    assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.operation.type")))
        .isEqualTo("send");
    assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.message.id")))
        .isNotBlank();
    assertThat(headers.get().get("traceparent"))
        .startsWith("00-" + request.getTraceId() + "-" + publish.getSpanId() + "-");

    assertThat(process.getKind()).isEqualTo(SpanKind.CONSUMER);
    assertThat(process.getTraceId()).isEqualTo(request.getTraceId());
    assertThat(process.getParentSpanId()).isEqualTo(publish.getSpanId());
    assertThat(current.get().getSpanId())
        .as("Span.current() in the handler")
        .isEqualTo(process.getSpanId());
    var a = process.getAttributes();
    assertThat(a.get(AttributeKey.stringKey("messaging.destination.name"))).isEqualTo(QUEUE);
    assertThat(a.get(AttributeKey.stringKey("messaging.operation.type"))).isEqualTo("process");
    assertThat(a.get(AttributeKey.stringKey("redrive.message.type"))).isEqualTo(TYPE);
    assertThat(a.get(AttributeKey.stringKey("redrive.worker"))).isEqualTo("w1");
    assertThat(a.get(AttributeKey.longKey("redrive.attempt"))).isEqualTo(1L);
    assertThat(process.getEvents())
        .extracting(EventData::getName)
        .containsExactly("leased", "completed");
    assertThat(
            event(process, "completed")
                .getAttributes()
                .get(AttributeKey.stringKey("redrive.worker")))
        .isEqualTo("w1");
    assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
  }

  @ParameterizedTest
  @EnumSource(TestStores.class)
  void aRetry_givesTwoProcessSpansInTheProducersTrace_withTheRetryAsAnEvent(TestStores kind) {
    engine(kind, RedriveTracing.create(otel));
    SpanContext request = enqueueInsideRequest();
    AtomicInteger calls = new AtomicInteger();

    work(
        ctx -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("first time fails");
          }
          return HandlerResult.complete();
        });
    SpanData first = awaitSpans("process " + QUEUE, 1).get(0);
    clock.advance(COOLDOWN.plusSeconds(1));
    List<SpanData> both = awaitSpans("process " + QUEUE, 2);

    SpanData publish = spans("publish " + QUEUE).get(0);
    SpanData second = both.get(1);
    assertThat(both)
        .allSatisfy(
            s -> {
              assertThat(s.getTraceId()).isEqualTo(request.getTraceId());
              assertThat(s.getParentSpanId()).isEqualTo(publish.getSpanId());
            });
    EventData retry = event(first, "retry scheduled");
    assertThat(retry.getAttributes().get(AttributeKey.longKey("redrive.attempt"))).isEqualTo(1L);
    assertThat(retry.getAttributes().get(AttributeKey.stringKey("redrive.failure.reason")))
        .isEqualTo("HANDLER_EXCEPTION");
    assertThat(retry.getAttributes().get(AttributeKey.stringKey("redrive.worker"))).isEqualTo("w1");
    assertThat(retry.getAttributes().get(AttributeKey.longKey("redrive.retry.delay_ms")))
        .isEqualTo(COOLDOWN.toMillis());
    assertThat(first.getEvents()).extracting(EventData::getName).contains("exception");
    assertThat(first.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(second.getAttributes().get(AttributeKey.longKey("redrive.attempt"))).isEqualTo(2L);
    assertThat(second.getEvents())
        .extracting(EventData::getName)
        .containsExactly("leased", "completed");
  }

  @ParameterizedTest
  @EnumSource(TestStores.class)
  void aDeadLetter_isAnEventWithItsReason(TestStores kind) {
    engine(kind, RedriveTracing.create(otel));
    enqueueInsideRequest();

    work(ctx -> HandlerResult.deadNow(FailureReason.VALIDATION_FAILURE, "no such customer"));

    SpanData process = awaitSpans("process " + QUEUE, 1).get(0);
    EventData dead = event(process, "dead-lettered");
    assertThat(dead.getAttributes().get(AttributeKey.stringKey("redrive.failure.reason")))
        .isEqualTo("VALIDATION_FAILURE");
    assertThat(dead.getAttributes().get(AttributeKey.stringKey("redrive.failure.message")))
        .isEqualTo("no such customer");
    assertThat(dead.getAttributes().get(AttributeKey.longKey("redrive.attempt"))).isEqualTo(1L);
    assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
  }

  @ParameterizedTest
  @EnumSource(TestStores.class)
  void linkRelation_startsANewTraceLinkedToThePublishSpan(TestStores kind) {
    engine(kind, RedriveTracing.builder(otel).producerRelation(ProducerRelation.LINK).build());
    SpanContext request = enqueueInsideRequest();

    work(ctx -> HandlerResult.complete());

    SpanData process = awaitSpans("process " + QUEUE, 1).get(0);
    SpanData publish = spans("publish " + QUEUE).get(0);
    assertThat(process.getTraceId()).isNotEqualTo(request.getTraceId());
    assertThat(process.getParentSpanContext().isValid()).isFalse();
    assertThat(process.getLinks())
        .singleElement()
        .satisfies(l -> assertThat(l.getSpanContext().getSpanId()).isEqualTo(publish.getSpanId()));
  }

  @Test
  void aCallersOwnTraceparent_isKeptAndTheHandlerIsItsChild() {
    engine(TestStores.SQLITE, RedriveTracing.create(otel));
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    redrive.enqueue(
        NewMessage.builder(QUEUE, TYPE).headers(Map.of("traceparent", traceparent)).build());

    work(ctx -> HandlerResult.complete());

    SpanData process = awaitSpans("process " + QUEUE, 1).get(0);
    assertThat(process.getTraceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(process.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
  }

  @Test
  void builder_rejectsMissingArguments() {
    assertThatThrownBy(() -> RedriveTracing.create(null)).hasMessage("openTelemetry: is required");
    assertThatThrownBy(() -> RedriveTracing.builder(otel).producerRelation(null))
        .hasMessage("producerRelation: is required");
  }
}
