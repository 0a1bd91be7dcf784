package io.redrive.store.workflow;

/**
 * Output of {@link WorkflowStore#startInstance}.
 *
 * @param instanceId the instance's id
 * @param created false when the instance existed and the start was answered with it
 */
public record StartInstanceResult(String instanceId, boolean created) {}
