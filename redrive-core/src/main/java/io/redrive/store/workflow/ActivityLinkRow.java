package io.redrive.store.workflow;

/**
 * An activity an instance scheduled whose message has not ended yet (table {@code
 * redrive_wf_activities}, status {@code PENDING}): where to find its deliveries while it runs.
 *
 * @param executionId the execution that scheduled it
 * @param seq its command number
 * @param name the activity's name
 * @param messageId its message
 * @param queue the workflow-owned queue the message is in
 */
public record ActivityLinkRow(
    int executionId, long seq, String name, String messageId, String queue) {}
