package io.redrive.workflow.testkit;

import io.redrive.workflow.InstanceStatus;
import java.util.Map;
import java.util.Objects;

/**
 * How one run of the explored orchestration ended.
 *
 * @param point the failure point injected, or null for the clean run
 * @param injected true when the failure point was reached and the failure happened (a point past
 *     the run's end is not)
 * @param instanceId the explored instance's id in this run (each run has its own, so state an
 *     activity keeps outside Redrive, keyed by instance or {@code idempotencyKey()}, stays apart)
 * @param status how the instance ended; RUNNING when it did not end within the explorer's time
 * @param output its output JSON when completed, else null
 * @param failure its failure's display text when failed or terminated, else null
 * @param handlerRuns per activity name, how many times its handler ran in this run (in every
 *     instance of the run)
 */
public record ExploredRun(
    FailurePoint point,
    boolean injected,
    String instanceId,
    InstanceStatus status,
    String output,
    String failure,
    Map<String, Integer> handlerRuns) {

  public ExploredRun {
    handlerRuns = Map.copyOf(handlerRuns);
  }

  /** How many times {@code activity}'s handler ran in this run (0 when never). */
  public int handlerRuns(String activity) {
    return handlerRuns.getOrDefault(activity, 0);
  }

  /** True when this run ended as {@code other} did: the same status, output and failure. */
  public boolean sameOutcomeAs(ExploredRun other) {
    return status == other.status
        && Objects.equals(output, other.output)
        && Objects.equals(failure, other.failure);
  }

  /** The outcome in words: {@code COMPLETED {"balance":5800}}, {@code FAILED <failure>}. */
  public String outcome() {
    return status + (output != null ? " " + output : "") + (failure != null ? " " + failure : "");
  }
}
