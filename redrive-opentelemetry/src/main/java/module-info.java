/**
 * Redrive's tracing with OpenTelemetry: {@link io.redrive.opentelemetry.RedriveTracing} implements
 * the engine's {@link io.redrive.trace.MessageTracing} with the OpenTelemetry API, carrying W3C
 * trace context in message headers. The only module of Redrive that names OpenTelemetry.
 */
module io.redrive.opentelemetry {
  requires transitive io.redrive;
  requires transitive io.opentelemetry.api;
  requires transitive io.opentelemetry.context;

  exports io.redrive.opentelemetry;
}
