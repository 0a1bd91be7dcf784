package io.redrive.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
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
import io.redrive.worker.HandlerResult;
import io.redrive.worker.Worker;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client's W3C trace context on {@code POST /v1/queues/{name}/messages} travels with the message:
 * stored as its headers, shown as its trace id (API and dashboard), and a worker traced with
 * OpenTelemetry runs its handler as a child of the client's span, in the client's trace.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class TracingHttpTest extends ApiTestBase {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN_ID = "00f067aa0ba902b7";
  private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + SPAN_ID + "-01";

  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
  private Worker worker;

  @AfterEach
  void stop() {
    if (worker != null) {
      worker.stop(Duration.ofSeconds(1));
    }
    provider.close();
  }

  private String postOne(String q, String message, Map<String, String> requestHeaders) {
    Response r =
        api.post(
            "/v1/queues/" + q + "/messages", "{\"messages\":[" + message + "]}", requestHeaders);
    assertThat(r.status()).as(r.toString()).isEqualTo(201);
    return r.get("results").get(0).get("id").asText();
  }

  @Test
  void postWithATraceparent_theHandlerSpanIsAChildOfTheClientsSpan() {
    String q = queue("traced");
    String id =
        postOne(
            q, "{\"type\":\"work\"}", Map.of("traceparent", TRACEPARENT, "tracestate", "vendor=x"));
    OpenTelemetry otel =
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    Redrive traced =
        Redrive.builder(TestServers.sharedStore(kind)).tracing(RedriveTracing.create(otel)).build();
    AtomicReference<SpanContext> current = new AtomicReference<>();

    worker =
        Worker.builder(traced, q)
            .pollInterval(Duration.ofMillis(5), Duration.ofMillis(20))
            .handler(
                "work",
                ctx -> {
                  current.set(Span.current().getSpanContext());
                  return HandlerResult.complete();
                })
            .build()
            .start();

    Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> !exporter.getFinishedSpanItems().isEmpty());
    SpanData process = exporter.getFinishedSpanItems().get(0);
    assertThat(process.getName()).isEqualTo("process " + q);
    assertThat(process.getTraceId()).isEqualTo(TRACE_ID);
    assertThat(process.getParentSpanId()).isEqualTo(SPAN_ID);
    assertThat(process.getSpanContext().getTraceState().get("vendor")).isEqualTo("x");
    assertThat(current.get().getSpanId()).isEqualTo(process.getSpanId());
    assertThat(process.getAttributes().asMap().toString()).contains(id);
  }

  @Test
  void postWithATraceparent_storesItAndShowsTheTraceId() throws Exception {
    String q = queue("shown");
    String id =
        postOne(
            q, "{\"type\":\"work\",\"headers\":{\"a\":\"1\"}}", Map.of("traceparent", TRACEPARENT));

    Response m = api.get("/v1/messages/" + id);
    assertThat(m.get("headers").get("traceparent").asText()).isEqualTo(TRACEPARENT);
    assertThat(m.get("headers").get("a").asText()).isEqualTo("1");
    assertThat(m.get("headers").has("tracestate")).isFalse();
    assertThat(m.get("traceId").asText()).isEqualTo(TRACE_ID);
    String page = new UiClient(server.baseUrl()).get("/ui/messages/" + id).body();
    assertThat(page).contains("id=\"m-trace-id\">" + TRACE_ID + "<");
  }

  @Test
  void aMessagesOwnTraceparent_winsOverTheRequests() {
    String q = queue("own");
    String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    String id =
        postOne(
            q,
            "{\"type\":\"work\",\"headers\":{\"traceparent\":\"" + own + "\"}}",
            Map.of("traceparent", TRACEPARENT, "tracestate", "vendor=x"));

    Response m = api.get("/v1/messages/" + id);
    assertThat(m.get("headers").get("traceparent").asText()).isEqualTo(own);
    assertThat(m.get("headers").has("tracestate")).isFalse();
    assertThat(m.get("traceId").asText()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
  }

  @Test
  void aMalformedTraceparent_isNotStoredAndNoTraceIdIsShown() throws Exception {
    String q = queue("junk");

    String id =
        postOne(
            q,
            "{\"type\":\"work\"}",
            Map.of("traceparent", "<b>not-a-trace</b>", "tracestate", "vendor=x"));

    Response m = api.get("/v1/messages/" + id);
    assertThat(m.get("headers").size()).isZero();
    assertThat(m.get("traceId").isNull()).isTrue();
    assertThat(new UiClient(server.baseUrl()).get("/ui/messages/" + id).body())
        .doesNotContain("m-trace-id");
  }
}
