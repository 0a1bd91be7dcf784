package io.redrive.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.redrive.Redrive;
import io.redrive.message.NewMessage;
import io.redrive.opentelemetry.ProducerRelation;
import io.redrive.opentelemetry.RedriveTracing;
import io.redrive.trace.MessageTracing;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The engine traces with the application's OpenTelemetry bean (redrive.tracing.*), and traces
 * nothing without one, with tracing disabled, or without OpenTelemetry on the class path.
 */
class TracingTest {
  @TempDir Path dir;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                RedriveAutoConfiguration.class, RedriveTracingAutoConfiguration.class))
        .withPropertyValues("redrive.sqlite.data-dir=" + dir);
  }

  /** An OpenTelemetry bean exporting to memory, and a handler that completes. */
  @Configuration(proxyBeanMethods = false)
  static class Traced {
    final InMemorySpanExporter exporter = InMemorySpanExporter.create();

    @Bean
    InMemorySpanExporter exporter() {
      return exporter;
    }

    @Bean
    OpenTelemetry openTelemetry() {
      return OpenTelemetrySdk.builder()
          .setTracerProvider(
              SdkTracerProvider.builder()
                  .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                  .build())
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
    }

    @RedriveHandler(queue = "mail", type = "send")
    void send() {}
  }

  @Test
  void anOpenTelemetryBean_tracesTheEngine_handlerSpanInTheEnqueuersTrace() {
    runner()
        .withUserConfiguration(Traced.class)
        .run(
            context -> {
              Redrive redrive = context.getBean(Redrive.class);
              assertThat(redrive.tracing()).isInstanceOf(RedriveTracing.class);
              assertThat(((RedriveTracing) redrive.tracing()).producerRelation())
                  .isEqualTo(ProducerRelation.CHILD);
              Span request =
                  context
                      .getBean(OpenTelemetry.class)
                      .getTracer("app")
                      .spanBuilder("req")
                      .startSpan();
              try (Scope ignored = request.makeCurrent()) {
                redrive.enqueue(NewMessage.builder("mail", "send").payload("{}").build());
              } finally {
                request.end();
              }
              InMemorySpanExporter exporter = context.getBean(InMemorySpanExporter.class);
              await()
                  .atMost(Duration.ofSeconds(20))
                  .until(
                      () ->
                          exporter.getFinishedSpanItems().stream()
                              .anyMatch(s -> s.getName().equals("process mail")));
              SpanData process =
                  exporter.getFinishedSpanItems().stream()
                      .filter(s -> s.getName().equals("process mail"))
                      .findFirst()
                      .orElseThrow();
              assertThat(process.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
            });
  }

  @Test
  void producerRelationLink_isPassedOn() {
    runner()
        .withUserConfiguration(Traced.class)
        .withPropertyValues("redrive.tracing.producer-relation=link")
        .run(
            context ->
                assertThat(
                        ((RedriveTracing) context.getBean(Redrive.class).tracing())
                            .producerRelation())
                    .isEqualTo(ProducerRelation.LINK));
  }

  @Test
  void disabled_orNoOpenTelemetryBean_orNoOpenTelemetryClasses_tracesNothing() {
    runner()
        .withUserConfiguration(Traced.class)
        .withPropertyValues("redrive.tracing.enabled=false")
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).tracing()).isSameAs(MessageTracing.NONE));
    runner()
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).tracing()).isSameAs(MessageTracing.NONE));
    runner()
        .withUserConfiguration(Traced.class)
        .withClassLoader(new FilteredClassLoader("io.redrive.opentelemetry"))
        .run(
            context ->
                assertThat(context.getBean(Redrive.class).tracing()).isSameAs(MessageTracing.NONE));
  }
}
