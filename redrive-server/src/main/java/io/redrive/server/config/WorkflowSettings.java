package io.redrive.server.config;

import io.redrive.queue.QueueNames;
import io.redrive.queue.QueuePolicy;
import io.redrive.retry.UnregisteredHandlerBackoff;
import io.redrive.time.DurationText;
import io.redrive.workflow.WorkflowRuntime;
import java.time.Duration;
import java.util.List;

/**
 * The {@code [workflows]} settings of the workflow runtime a server runs ({@code redrive server
 * --workflows}), validated on construction; a null field keeps the runtime's default
 * (docs/configuration.md lists them). Errors name the setting as the file spells it, e.g. {@code
 * orchestrationConcurrency: must be 1-1024, was -1}.
 *
 * @param nodeId this node's id (default {@code wf-<pid>@<host>})
 * @param buildId the code build the node runs, recorded with its turns (default none)
 * @param orchestrationConcurrency turns run at once (default 4)
 * @param activityConcurrency activities run at once per activity queue (default 32)
 * @param maxAttempts counted tries of a turn's batch and deliveries of an activity (default 10)
 * @param unregisteredBackoffBase the first wait after a try that found no code (default 1 s)
 * @param unregisteredBackoffMax the longest such wait (default 60 s)
 * @param activityQueues more workflow-owned queues the node creates and serves, besides those its
 *     registry's activities use (default none)
 * @param maxBatch inbox rows one turn takes at most (default 500)
 * @param pollInterval the longest the turn poller and activity workers sleep without a wake-up
 *     (default 1 s)
 * @param activityLeaseTimeout how long the node's lease on an activity message lasts unless renewed
 *     (default 30 s)
 * @param historyCacheSize instances whose history the node keeps after their turns (0: none)
 * @param stickyWait how long an instance whose history another node keeps is left to that node
 *     (default 1 s; 0: no stickiness)
 */
public record WorkflowSettings(
    String nodeId,
    String buildId,
    Integer orchestrationConcurrency,
    Integer activityConcurrency,
    Integer maxAttempts,
    Duration unregisteredBackoffBase,
    Duration unregisteredBackoffMax,
    List<String> activityQueues,
    Integer maxBatch,
    Duration pollInterval,
    Duration activityLeaseTimeout,
    Integer historyCacheSize,
    Duration stickyWait) {

  public WorkflowSettings {
    name("nodeId", nodeId);
    name("buildId", buildId);
    between("orchestrationConcurrency", orchestrationConcurrency, 1, 1024);
    between("activityConcurrency", activityConcurrency, 1, 1024);
    between("maxAttempts", maxAttempts, 1, QueuePolicy.MAX_MAX_ATTEMPTS);
    between("historyCacheSize", historyCacheSize, 0, 1_000_000);
    if (stickyWait != null && stickyWait.isNegative()) {
      throw new IllegalArgumentException(
          "stickyWait: must not be negative, was " + DurationText.format(stickyWait));
    }
    positive("unregisteredBackoff.base", unregisteredBackoffBase);
    positive("unregisteredBackoff.max", unregisteredBackoffMax);
    Duration base = backoffBase(unregisteredBackoffBase);
    Duration max = backoffMax(unregisteredBackoffBase, unregisteredBackoffMax);
    if (max.compareTo(base) < 0) {
      throw new IllegalArgumentException(
          "unregisteredBackoff.max: must be at least the base ("
              + DurationText.format(base)
              + "), was "
              + DurationText.format(max));
    }
    activityQueues = activityQueues == null ? List.of() : List.copyOf(activityQueues);
    for (String q : activityQueues) {
      QueueNames.require("activityQueues", q);
    }
    between("maxBatch", maxBatch, 1, 10_000);
    positive("pollInterval", pollInterval);
    if (positive("activityLeaseTimeout", activityLeaseTimeout) != null) {
      try {
        QueuePolicy.requireLeaseTimeout(activityLeaseTimeout);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "activityLeaseTimeout: " + ConfigNode.withoutField(e.getMessage()), e);
      }
    }
  }

  /** Every setting at the runtime's default. */
  public static WorkflowSettings defaults() {
    return new WorkflowSettings(
        null, null, null, null, null, null, null, List.of(), null, null, null, null, null);
  }

  private static Duration backoffBase(Duration base) {
    return base != null ? base : UnregisteredHandlerBackoff.DEFAULT.base();
  }

  /** The given max, else the default's, raised to a given base above it. */
  private static Duration backoffMax(Duration base, Duration max) {
    Duration d = UnregisteredHandlerBackoff.DEFAULT.max();
    return max != null ? max : base != null && base.compareTo(d) > 0 ? base : d;
  }

  /** Sets every given setting on {@code b}; the others keep the builder's defaults. */
  public WorkflowRuntime.Builder applyTo(WorkflowRuntime.Builder b) {
    if (nodeId != null) {
      b.nodeId(nodeId);
    }
    if (buildId != null) {
      b.buildId(buildId);
    }
    if (orchestrationConcurrency != null) {
      b.orchestrationConcurrency(orchestrationConcurrency);
    }
    if (activityConcurrency != null) {
      b.activityConcurrency(activityConcurrency);
    }
    if (maxAttempts != null) {
      b.maxAttempts(maxAttempts);
    }
    if (unregisteredBackoffBase != null || unregisteredBackoffMax != null) {
      b.unregisteredBackoff(
          new UnregisteredHandlerBackoff(
              backoffBase(unregisteredBackoffBase),
              UnregisteredHandlerBackoff.DEFAULT.maxExponent(),
              backoffMax(unregisteredBackoffBase, unregisteredBackoffMax)));
    }
    b.activityQueues(activityQueues.toArray(String[]::new));
    if (maxBatch != null) {
      b.maxBatch(maxBatch);
    }
    if (pollInterval != null) {
      b.pollInterval(pollInterval);
    }
    if (activityLeaseTimeout != null) {
      b.activityLeaseTimeout(activityLeaseTimeout);
    }
    if (historyCacheSize != null) {
      b.historyCacheSize(historyCacheSize);
    }
    if (stickyWait != null) {
      b.stickyWait(stickyWait);
    }
    return b;
  }

  private static void name(String field, String value) {
    if (value == null) {
      return;
    }
    if (value.isBlank()
        || value.length() > 200
        || value.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException(
          field + ": 1 to 200 characters without control characters, was \"" + value + "\"");
    }
  }

  private static void between(String field, Integer value, int min, int max) {
    if (value != null && (value < min || value > max)) {
      throw new IllegalArgumentException(field + ": must be " + min + "-" + max + ", was " + value);
    }
  }

  private static Duration positive(String field, Duration value) {
    if (value != null && (value.isNegative() || value.isZero())) {
      throw new IllegalArgumentException(
          field + ": must be positive, was " + DurationText.format(value));
    }
    return value;
  }
}
