package io.redrive.trace;

/**
 * A workflow instance about to be started by a client, for {@link MessageTracing#startInstance}.
 *
 * @param instanceId the instance's id
 * @param name the orchestration's name
 * @param version the version the starter asked for, or null for the runtime's default
 * @param parent the W3C trace context (headers) the starter gave for the instance to continue, or
 *     empty to continue the starting thread's current one
 */
public record WorkflowStart(
    String instanceId, String name, String version, java.util.Map<String, String> parent) {
  public WorkflowStart {
    parent = parent == null ? java.util.Map.of() : java.util.Map.copyOf(parent);
  }

  /** A start continuing the starting thread's current context. */
  public WorkflowStart(String instanceId, String name, String version) {
    this(instanceId, name, version, java.util.Map.of());
  }
}
