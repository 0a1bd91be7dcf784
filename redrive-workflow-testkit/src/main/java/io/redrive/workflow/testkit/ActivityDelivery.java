package io.redrive.workflow.testkit;

/**
 * One delivery of an activity as a {@link WorkflowTestEnvironment} saw it run.
 *
 * @param instanceId the instance that called it
 * @param activityId the call's command number in that instance
 * @param attempt the delivery of its message (1 for the first)
 * @param retryNumber the retry policy's retry (0 for the first call)
 * @param input the input as the activity received it (its registered input type)
 * @param crashed true when this delivery crashed on purpose ({@link
 *     ActivityStub#crashingOnAttempt})
 */
public record ActivityDelivery(
    String instanceId,
    long activityId,
    int attempt,
    int retryNumber,
    Object input,
    boolean crashed) {}
