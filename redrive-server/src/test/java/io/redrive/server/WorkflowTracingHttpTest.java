package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.redrive.Redrive;
import io.redrive.opentelemetry.RedriveTracing;
import io.redrive.server.HttpApiClient.Response;
import io.redrive.workflow.WorkflowClient;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client's W3C trace context on {@code POST /v1/workflows} becomes the instance's: a runtime
 * traced with OpenTelemetry runs every turn of it, and both its activities, in the client's trace —
 * even though the server that took the start traces nothing itself.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class WorkflowTracingHttpTest extends ApiTestBase {
  private static final String TRACE_ID = "5bf92f3577b34da6a3ce929d0e0e4737";
  private static final String SPAN_ID = "10f067aa0ba902b8";

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private WorkflowRuntime runtime;

  @AfterEach
  void stop() {
    if (runtime != null) {
      runtime.stop(Duration.ofSeconds(2));
    }
    provider.close();
  }

  @Test
  void postStartWithATraceparent_turnsAndBothActivitiesAreInTheClientsTrace() throws Exception {
    String suffix = UUID.randomUUID().toString().substring(0, 8);
    String order = "TracedOrder" + suffix;
    String reserve = "TracedReserve" + suffix;
    String charge = "TracedCharge" + suffix;
    Response started =
        api.post(
            "/v1/workflows",
            "{\"name\":\"" + order + "\",\"input\":\"o-1\"}",
            Map.of("traceparent", "00-" + TRACE_ID + "-" + SPAN_ID + "-01"));
    assertThat(started.status()).as(started.toString()).isEqualTo(201);
    String id = started.get("id").asText();

    OpenTelemetry otel =
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    Redrive traced =
        Redrive.builder(TestServers.sharedStore(kind)).tracing(RedriveTracing.create(otel)).build();
    WorkflowRegistry registry =
        WorkflowRegistry.builder()
            .activity(reserve, String.class, String.class, (ctx, in) -> in + ">reserved")
            .activity(charge, String.class, String.class, (ctx, in) -> in + ">charged")
            .orchestration(
                order,
                "1.0.0",
                String.class,
                String.class,
                (ctx, in) -> {
                  String a = ctx.callActivity(reserve, in, String.class).await();
                  return ctx.callActivity(charge, a, String.class).await();
                })
            .build();
    runtime =
        WorkflowRuntime.builder(traced, registry)
            .nodeId("traced-" + suffix)
            .pollInterval(Duration.ofMillis(20))
            .build()
            .start();

    assertThat(WorkflowClient.on(traced).awaitResult(id, Duration.ofSeconds(30), String.class))
        .isEqualTo("o-1>reserved>charged");
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> spans("process ").size() >= 2 && spans("turn " + order).size() >= 3);
    List<SpanData> turns = spans("turn " + order);
    assertThat(turns)
        .allSatisfy(
            t -> {
              assertThat(t.getTraceId()).isEqualTo(TRACE_ID);
              assertThat(t.getParentSpanId()).isEqualTo(SPAN_ID);
            });
    Set<String> turnIds = turns.stream().map(SpanData::getSpanId).collect(Collectors.toSet());
    assertThat(spans("process "))
        .hasSize(2)
        .allSatisfy(
            p -> {
              assertThat(p.getTraceId()).isEqualTo(TRACE_ID);
              assertThat(turnIds).contains(p.getParentSpanId());
            });
  }

  private List<SpanData> spans(String namePrefix) {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().startsWith(namePrefix))
        .toList();
  }
}
