package io.redrive.workflow;

import java.time.Instant;

/**
 * An orchestration instance as a client sees it. JSON fields are text as stored.
 *
 * @param id the instance's id
 * @param name the orchestration's name
 * @param version the pinned version, or null before the first turn
 * @param requestedVersion the version the starter asked for, or null for the default
 * @param status where it is in its life
 * @param executionId the current execution
 * @param input the current execution's input JSON, or null
 * @param output the output JSON once completed, or null
 * @param failure the failure once failed or terminated, or null
 * @param customStatus the status the code set (JSON), or null
 * @param parentId the parent, or null for a root
 * @param rootId the root of its tree
 * @param createdAt when it was started
 * @param updatedAt when it last changed
 * @param completedAt when it ended, or null
 * @param turnAttempt counted tries of its pending batch
 * @param historyEvents events in the current execution's history
 * @param historyBytes bytes of the current execution's history
 */
public record InstanceInfo(
    String id,
    String name,
    String version,
    String requestedVersion,
    InstanceStatus status,
    int executionId,
    String input,
    String output,
    WorkflowFailure failure,
    String customStatus,
    String parentId,
    String rootId,
    Instant createdAt,
    Instant updatedAt,
    Instant completedAt,
    int turnAttempt,
    int historyEvents,
    long historyBytes) {}
