package io.redrive.workflow;

/**
 * What a start did.
 *
 * @param instanceId the instance's id
 * @param created false when an instance with the id existed and was returned
 * @param warning why the instance may not run soon, or null: no live node runs that orchestration
 *     (or that version); the start stands, as in a rolling deploy the node that runs it may come
 *     next
 */
public record StartResult(String instanceId, boolean created, String warning) {
  /** A result without a warning. */
  public StartResult(String instanceId, boolean created) {
    this(instanceId, created, null);
  }
}
