package io.redrive.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings under {@code redrive.tracing}: tracing with the application's OpenTelemetry. */
@ConfigurationProperties(prefix = "redrive.tracing")
public class RedriveTracingProperties {

  /** How a handler's span relates to the span that enqueued its message. */
  public enum ProducerRelation {
    /** A child of the producer's span: one trace from the request to the handler. */
    CHILD,
    /** A trace of its own, linked to the producer's span. */
    LINK
  }

  /**
   * Whether the engine traces its messages with the application's OpenTelemetry bean (when there is
   * one and redrive-opentelemetry is on the class path).
   */
  private boolean enabled = true;

  /** How a handler's span relates to the producer's span: child or link. */
  private ProducerRelation producerRelation = ProducerRelation.CHILD;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public ProducerRelation getProducerRelation() {
    return producerRelation;
  }

  public void setProducerRelation(ProducerRelation producerRelation) {
    this.producerRelation = producerRelation;
  }
}
