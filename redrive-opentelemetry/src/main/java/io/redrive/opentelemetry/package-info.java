/**
 * OpenTelemetry for Redrive: {@link io.redrive.opentelemetry.RedriveTracing} (build it from the
 * application's {@code OpenTelemetry} and give it to {@code Redrive.Builder#tracing}) and {@link
 * io.redrive.opentelemetry.ProducerRelation}. Package-private beside them: the publish and process
 * traces, the header carrier and the attribute names (messaging semantic conventions).
 */
package io.redrive.opentelemetry;
