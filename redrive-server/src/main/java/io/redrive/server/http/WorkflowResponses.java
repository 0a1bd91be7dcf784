package io.redrive.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.redrive.workflow.InstanceStatus;
import io.redrive.workflow.PoisonTarget;
import io.redrive.workflow.TimelineEntry;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The response bodies of the workflow endpoints (docs/api.md, "Workflows"), kept apart from {@link
 * Responses} so each file stays about one part of the API. {@code /openapi.json} derives their
 * schemas the same way.
 */
final class WorkflowResponses {
  private WorkflowResponses() {}

  /** One instance, in full: {@code GET /v1/workflows/{id}}, start, terminate and retry. */
  record Instance(
      String id,
      String name,
      @ApiField(nullable = true, description = "the pinned version; null before the first turn")
          String version,
      InstanceStatus status,
      @ApiField(min = 1) int execution,
      @ApiField(nullable = true) RawJson input,
      @ApiField(nullable = true) RawJson output,
      @ApiField(nullable = true) WorkflowFailure failure,
      @ApiField(nullable = true) RawJson customStatus,
      @ApiField(nullable = true) String parent,
      String root,
      Instant createdAt,
      Instant updatedAt,
      @ApiField(nullable = true) Instant completedAt,
      @ApiField(
              nullable = true,
              description = "why it is not moving: a turn running now, or tries that failed")
          Waiting waiting,
      Pending pending,
      HistorySize history,
      @ApiField(description = "a termination was asked for and its turn has not run yet")
          boolean terminateRequested,
      @JsonInclude(JsonInclude.Include.NON_NULL)
          @ApiField(description = "start only: false when an existing instance was returned")
          Boolean created,
      @JsonInclude(JsonInclude.Include.NON_NULL)
          @ApiField(
              description =
                  "start only, when no live node runs the orchestration (or the version asked"
                      + " for): the start stands, the instance waits for such a node")
          String warning) {}

  /** An instance in a list: no input or output. */
  record InstanceSummary(
      String id,
      String name,
      @ApiField(nullable = true) String version,
      @ApiField(nullable = true, description = "the version asked for at start, if one was")
          String requestedVersion,
      InstanceStatus status,
      @ApiField(min = 1) int execution,
      @ApiField(nullable = true) WorkflowFailure failure,
      @ApiField(nullable = true) RawJson customStatus,
      @ApiField(nullable = true) String parent,
      String root,
      Instant createdAt,
      Instant updatedAt,
      @ApiField(nullable = true) Instant completedAt,
      @ApiField(description = "counted tries of its pending turn") int turnAttempt) {}

  /** {@code GET /v1/workflows}: a page and the cursor of the next one. */
  record InstanceList(List<InstanceSummary> instances, @ApiField(nullable = true) String next) {}

  /** {@code GET /v1/workflows/{id}/children}. */
  record ChildList(List<InstanceSummary> instances) {}

  /**
   * What an instance waits on when it is not simply idle: its turn runs now ({@code IN_TURN}), or
   * its last tries failed and it backs off (the last try's outcome, e.g. UNREGISTERED).
   */
  record Waiting(
      String reason,
      @ApiField(nullable = true) String message,
      @ApiField(description = "counted tries of the pending turn") int attempt,
      @ApiField(nullable = true, description = "when the lease ends or the backoff is over")
          Instant until,
      @ApiField(nullable = true) String node) {}

  /** The work an instance has outstanding in its current execution. */
  record Pending(
      int activities,
      int timers,
      @ApiField(description = "raised events waiting to be consumed") int events,
      int children,
      @ApiField(nullable = true) Instant nextTimerAt) {}

  /** The size of the current execution's history. */
  record HistorySize(int events, long bytes) {}

  /** A failure that crossed a durable boundary (docs/workflows.md, "Failure semantics"). */
  record WorkflowFailure(
      String reason,
      String category,
      @ApiField(nullable = true) String message,
      @ApiField(nullable = true) String type,
      @ApiField(nullable = true) String stackTrace,
      boolean retryable,
      @ApiField(nullable = true) Long retryAfterMs,
      @ApiField(nullable = true) Integer attempt,
      @ApiField(nullable = true) Integer maxAttempts,
      @ApiField(nullable = true) PoisonTarget target,
      @ApiField(nullable = true) String instanceId,
      @ApiField(nullable = true) Integer executionId,
      @ApiField(nullable = true) String activityName,
      @ApiField(nullable = true) Long activityId,
      @ApiField(nullable = true) String poisonedMessage,
      List<String> via,
      @ApiField(nullable = true) WorkflowFailure lastAttempt,
      @ApiField(nullable = true) WorkflowFailure cause,
      String display) {}

  /** One history event. */
  record Event(
      @ApiField(min = 1) int eventId,
      @ApiField(min = 1) int execution,
      String kind,
      int turn,
      Instant at,
      @ApiField(nullable = true) Long seq,
      @ApiField(nullable = true) String name,
      @ApiField(nullable = true) RawJson data) {}

  /** {@code GET /v1/workflows/{id}/history}. */
  record EventPage(List<Event> events, @ApiField(nullable = true) String next) {}

  /** One line of the attempt-level timeline. */
  record TimelineLine(
      @ApiField(nullable = true) Instant at,
      TimelineEntry.Kind kind,
      @ApiField(min = 1) int execution,
      @ApiField(nullable = true) Integer eventId,
      @ApiField(nullable = true) String event,
      @ApiField(nullable = true) String name,
      @ApiField(nullable = true) Long seq,
      @ApiField(nullable = true) Integer attempt,
      @ApiField(nullable = true) String node,
      @ApiField(nullable = true, description = "the build the node ran, when it names one")
          String build,
      @ApiField(nullable = true) String outcome,
      @ApiField(nullable = true) String reason,
      @ApiField(nullable = true) String message) {}

  /** {@code GET /v1/workflows/{id}/timeline}. */
  record Timeline(List<TimelineLine> entries) {}

  /** {@code POST /v1/workflows/{id}/events}. */
  record Raised(@ApiField(description = "the dedupe key was already used") boolean duplicate) {}

  /** One live workflow node, as it last published itself. */
  record Node(
      String nodeId,
      @ApiField(nullable = true) String buildId,
      @ApiField(description = "orchestrations whose turns it runs: name to versions, oldest first")
          Map<String, List<String>> orchestrations,
      @ApiField(description = "activity types it runs: type to queue")
          Map<String, String> activities,
      @ApiField(description = "turns it runs at once (0: it runs no turns)")
          int orchestrationConcurrency,
      @ApiField(description = "activities it runs at once per queue (0: it runs none)")
          int activityConcurrency,
      Instant startedAt,
      Instant lastSeenAt) {}

  /** {@code GET /v1/workflow-nodes}. */
  record NodeList(List<Node> nodes) {}

  /** {@code DELETE /v1/workflows/{id}}. */
  record Deleted(
      @ApiField(description = "instances deleted: the root and its whole tree") int instances,
      @ApiField(description = "activity messages deleted with them") int messages) {}
}
