package io.redrive.workflow.runtime;

import io.redrive.retry.UnregisteredHandlerBackoff;
import java.time.Duration;
import java.util.Set;

/**
 * A workflow runtime's settings, validated by its builder.
 *
 * @param nodeId this node's id (turn rows, leases, logs)
 * @param buildId the code build this node runs, or null
 * @param maxAttempts counted tries of a turn's batch, and deliveries of an activity message
 * @param maxCrashes a batch whose lease ran out on this many distinct nodes is poison (0: off)
 * @param unregisteredBackoff the wait after a try that found no code (or a replay mismatch)
 * @param turnLeaseTimeout how long a turn lease lasts unless renewed
 * @param maxTurnDuration a turn running longer is interrupted and abandoned
 * @param localActivityMaxTimeout the longest declared timeout of an activity placed locally by
 *     default (docs/workflows.md, "Local and queued activities"); at most half of {@code
 *     maxTurnDuration}
 * @param orchestrationConcurrency turns this node runs at once
 * @param activityConcurrency activities this node runs at once, per queue
 * @param activityQueues the workflow-owned queues this node's activities use
 * @param maxBatch inbox rows one turn takes at most
 * @param maxHistoryEvents events one execution may hold
 * @param maxHistoryBytes bytes one execution's history may hold
 * @param pollInterval the longest the turn poller sleeps without a wake-up
 * @param orchestrations whether this node runs turns
 * @param activities whether this node runs activities
 * @param historyCacheSize instances whose history this node keeps after their turns (0: none)
 * @param stickyWait how long an instance whose history another node keeps is left to that node
 *     before this one leases its turn (docs/workflows.md, "History cache"; 0: no stickiness)
 */
public record RuntimeSettings(
    String nodeId,
    String buildId,
    int maxAttempts,
    int maxCrashes,
    UnregisteredHandlerBackoff unregisteredBackoff,
    Duration turnLeaseTimeout,
    Duration maxTurnDuration,
    Duration localActivityMaxTimeout,
    int orchestrationConcurrency,
    int activityConcurrency,
    Set<String> activityQueues,
    int maxBatch,
    int maxHistoryEvents,
    long maxHistoryBytes,
    Duration pollInterval,
    boolean orchestrations,
    boolean activities,
    int historyCacheSize,
    Duration stickyWait) {
  public RuntimeSettings {
    activityQueues = Set.copyOf(activityQueues);
    // A local activity runs inside its turn: never longer than half of what a turn may take.
    Duration half = maxTurnDuration.dividedBy(2);
    if (localActivityMaxTimeout.compareTo(half) > 0) {
      localActivityMaxTimeout = half;
    }
  }

  /** True when this node's commits make instances stick to it: it keeps histories, others wait. */
  public boolean sticky() {
    return historyCacheSize > 0 && !stickyWait.isZero();
  }
}
