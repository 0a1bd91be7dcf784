package io.redrive.spring;

import io.opentelemetry.api.OpenTelemetry;
import io.redrive.opentelemetry.ProducerRelation;
import io.redrive.opentelemetry.RedriveTracing;
import io.redrive.trace.MessageTracing;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Tracing with the application's {@link OpenTelemetry} bean: when redrive-opentelemetry is on the
 * class path, such a bean exists and {@code redrive.tracing.enabled} is not false, the engine is
 * built with {@link RedriveTracing} over it (docs/tracing.md). Without any of them, nothing here
 * loads and the engine traces nothing. The one class of the starter that names OpenTelemetry.
 */
// By name: the OpenTelemetry auto-configuration moved between Spring Boot 3 (actuator) and 4.
@AutoConfiguration(
    before = RedriveAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.actuate.autoconfigure.opentelemetry.OpenTelemetryAutoConfiguration",
      "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration"
    })
@ConditionalOnClass(
    name = {"io.opentelemetry.api.OpenTelemetry", "io.redrive.opentelemetry.RedriveTracing"})
@ConditionalOnProperty(
    prefix = "redrive.tracing",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(RedriveTracingProperties.class)
public class RedriveTracingAutoConfiguration {

  /** Redrive's tracing over the application's OpenTelemetry; backs off for one of its own. */
  @Bean
  @ConditionalOnBean(OpenTelemetry.class)
  @ConditionalOnMissingBean(MessageTracing.class)
  public MessageTracing redriveTracing(
      OpenTelemetry openTelemetry, RedriveTracingProperties properties) {
    return RedriveTracing.builder(openTelemetry)
        .producerRelation(ProducerRelation.valueOf(properties.getProducerRelation().name()))
        .build();
  }
}
