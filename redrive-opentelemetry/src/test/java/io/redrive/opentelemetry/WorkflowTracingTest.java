package io.redrive.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.redrive.Redrive;
import io.redrive.store.Store;
import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.StartRequest;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Traced workflows on each store (docs/tracing.md, "Workflows"): a real runtime with its activity
 * worker, traced into the SDK's in-memory exporter. A start is a span whose context every turn
 * continues; the activities a turn enqueues are handled in that trace, children of the turn; a
 * local activity and a child instance stay in it too.
 */
class WorkflowTracingTest {
  private static final Duration AT_MOST = Duration.ofSeconds(20);
  private static final String PROCESS = "process wf.activities"; // the default activity queue
  private static final TypeReference<String> STRING = new TypeReference<>() {};
  private static final AttributeKey<String> INSTANCE =
      AttributeKey.stringKey("redrive.workflow.instance_id");

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private final OpenTelemetry otel =
      OpenTelemetrySdk.builder()
          .setTracerProvider(provider)
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
  private final Tracer app = otel.getTracer("app");
  private final List<AutoCloseable> open = new ArrayList<>();
  private WorkflowClient client;

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    provider.close();
  }

  private void runtime(TestStores kind) {
    Store store = kind.open();
    open.add(store);
    Redrive redrive = Redrive.builder(store).tracing(RedriveTracing.create(otel)).build();
    open.add(redrive);
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .activity("Reserve", String.class, String.class, (ctx, in) -> in + ">reserved")
            .activity("Charge", String.class, String.class, (ctx, in) -> in + ">charged")
            .orchestration(
                "Order",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String a = ctx.callActivity("Reserve", in, String.class).await();
                  return ctx.callActivity("Charge", a, String.class).await();
                })
            .orchestration(
                "Parent",
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String a =
                      ctx.callActivity("Reserve", in, STRING, ActivityOptions.local()).await();
                  return ctx.callSubOrchestration("Order", a, String.class).await();
                })
            .build();
    WorkflowRuntime runtime =
        WorkflowRuntime.builder(redrive, registry)
            .nodeId("n1")
            .pollInterval(Duration.ofMillis(20))
            .build()
            .start();
    open.add(runtime);
    client = WorkflowClient.on(redrive);
  }

  @ParameterizedTest
  @EnumSource(TestStores.class)
  void startInsideASpan_turnsAndBothActivitiesShareItsTrace(TestStores kind) throws Exception {
    runtime(kind);
    Span request = app.spanBuilder("POST /orders").startSpan();
    String id;
    try (Scope ignored = request.makeCurrent()) {
      id = client.start(StartRequest.of("Order", "o-1")).instanceId();
    } finally {
      request.end();
    }
    assertThat(client.awaitResult(id, AT_MOST, String.class)).isEqualTo("o-1>reserved>charged");
    String trace = request.getSpanContext().getTraceId();

    SpanData start = awaitSpans("start Order", 1).get(0);
    assertThat(start.getTraceId()).isEqualTo(trace);
    assertThat(start.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
    assertThat(start.getKind()).isEqualTo(SpanKind.PRODUCER);
    assertThat(start.getAttributes().get(INSTANCE)).isEqualTo(id);

    List<SpanData> processes = awaitSpans(PROCESS, 2);
    List<SpanData> turns = spans("turn Order");
    assertThat(turns).hasSizeGreaterThanOrEqualTo(3); // start, after Reserve, after Charge
    assertThat(turns)
        .allSatisfy(
            t -> {
              assertThat(t.getTraceId()).isEqualTo(trace);
              assertThat(t.getParentSpanId()).isEqualTo(start.getSpanId());
              assertThat(t.getKind()).isEqualTo(SpanKind.INTERNAL);
              assertThat(t.getAttributes().get(INSTANCE)).isEqualTo(id);
              assertThat(t.getAttributes().get(AttributeKey.stringKey("redrive.workflow.name")))
                  .isEqualTo("Order");
            });
    Set<String> turnIds = turns.stream().map(SpanData::getSpanId).collect(Collectors.toSet());
    assertThat(processes)
        .hasSize(2)
        .allSatisfy(
            p -> {
              assertThat(p.getTraceId()).isEqualTo(trace);
              assertThat(turnIds).contains(p.getParentSpanId());
            });
  }

  @ParameterizedTest
  @EnumSource(TestStores.class)
  void startWithNoSpan_isOneTraceThroughLocalActivityAndChild(TestStores kind) throws Exception {
    runtime(kind);
    String id = client.start(StartRequest.of("Parent", "p-1")).instanceId();
    assertThat(client.awaitResult(id, AT_MOST, String.class))
        .isEqualTo("p-1>reserved>reserved>charged");

    SpanData start = awaitSpans("start Parent", 1).get(0);
    assertThat(start.getParentSpanContext().isValid()).isFalse(); // the instance's root
    String trace = start.getTraceId();
    List<SpanData> processes = awaitSpans(PROCESS, 2);
    List<SpanData> parentTurns = spans("turn Parent");
    List<SpanData> childTurns = spans("turn Order");
    SpanData local = awaitSpans("local activity Reserve", 1).get(0);

    assertThat(parentTurns)
        .isNotEmpty()
        .allSatisfy(t -> assertThat(t.getTraceId()).isEqualTo(trace));
    assertThat(childTurns)
        .isNotEmpty()
        .allSatisfy(t -> assertThat(t.getTraceId()).isEqualTo(trace));
    assertThat(processes).allSatisfy(p -> assertThat(p.getTraceId()).isEqualTo(trace));
    Set<String> parentTurnIds =
        parentTurns.stream().map(SpanData::getSpanId).collect(Collectors.toSet());
    assertThat(parentTurnIds).contains(local.getParentSpanId());
    // The child continues the turn that started it; its activities are children of its turns.
    assertThat(childTurns).allSatisfy(t -> assertThat(parentTurnIds).contains(t.getParentSpanId()));
    Set<String> childTurnIds =
        childTurns.stream().map(SpanData::getSpanId).collect(Collectors.toSet());
    assertThat(processes).allSatisfy(p -> assertThat(childTurnIds).contains(p.getParentSpanId()));
    assertThat(spans("start Order")).isEmpty();
  }

  private List<SpanData> awaitSpans(String name, int count) {
    Awaitility.await().atMost(AT_MOST).until(() -> spans(name).size() >= count);
    return spans(name);
  }

  private List<SpanData> spans(String name) {
    return exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals(name)).toList();
  }
}
