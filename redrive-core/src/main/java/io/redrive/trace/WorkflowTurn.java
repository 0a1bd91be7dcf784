package io.redrive.trace;

import java.util.Map;

/**
 * One turn of a workflow instance about to run, for {@link MessageTracing#turn}.
 *
 * @param instanceId the instance's id
 * @param name the orchestration's name
 * @param version the version the turn runs, or null while none is pinned
 * @param executionId the execution the turn belongs to
 * @param attempt the turn's try (1 for the first)
 * @param context the trace context the instance's start captured (W3C {@code traceparent} and
 *     {@code tracestate}), empty when it was not traced
 */
public record WorkflowTurn(
    String instanceId,
    String name,
    String version,
    int executionId,
    int attempt,
    Map<String, String> context) {

  public WorkflowTurn {
    context = context == null ? Map.of() : Map.copyOf(context);
  }
}
