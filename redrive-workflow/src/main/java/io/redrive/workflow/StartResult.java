package io.redrive.workflow;

/**
 * What a start did.
 *
 * @param instanceId the instance's id
 * @param created false when an instance with the id existed and was returned
 */
public record StartResult(String instanceId, boolean created) {}
