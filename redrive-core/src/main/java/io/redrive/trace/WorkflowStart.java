package io.redrive.trace;

/**
 * A workflow instance about to be started by a client, for {@link MessageTracing#startInstance}.
 *
 * @param instanceId the instance's id
 * @param name the orchestration's name
 * @param version the version the starter asked for, or null for the runtime's default
 */
public record WorkflowStart(String instanceId, String name, String version) {}
