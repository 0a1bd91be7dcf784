package io.redrive.workflow;

import java.time.Instant;

/**
 * An instance with what it waits on and what it has outstanding, as {@link WorkflowClient#inspect}
 * reads it at one moment (docs/api.md, {@code GET /v1/workflows/{id}}).
 *
 * @param instance the instance
 * @param waiting why it is not running a turn now although it has work, or null (ended, idle)
 * @param pending its current execution's open commands and buffered events
 * @param terminateRequested a terminate waits for its next turn
 */
public record InstanceDetail(
    InstanceInfo instance, Waiting waiting, Pending pending, boolean terminateRequested) {

  /**
   * What a live instance waits on.
   *
   * @param reason {@code IN_TURN} while a node holds its turn lease; else the outcome of the last
   *     turn try that ended without a commit ({@code RETRYING} when none is recorded)
   * @param message that try's message, or null
   * @param attempt counted tries of its pending batch
   * @param until when the turn lease runs out (IN_TURN) or the backoff ends, or null
   * @param node the node holding the lease, or the node of that last try, or null
   */
  public record Waiting(String reason, String message, int attempt, Instant until, String node) {}

  /**
   * The current execution's commands without an answer, and buffered events.
   *
   * @param activities activities scheduled and not finished
   * @param timers timers created and not fired
   * @param events raised events waiting in the inbox
   * @param children sub-orchestrations started and not ended
   * @param nextTimer the earliest timer due in the inbox, or null
   */
  public record Pending(int activities, int timers, int events, int children, Instant nextTimer) {}
}
