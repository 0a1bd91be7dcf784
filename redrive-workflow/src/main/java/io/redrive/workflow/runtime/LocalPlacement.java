package io.redrive.workflow.runtime;

import io.redrive.workflow.ActivityOptions;
import io.redrive.workflow.ActivityPlacement;
import io.redrive.workflow.ActivityRegistration;
import io.redrive.workflow.WorkflowRegistry;
import io.redrive.workflow.replay.OrchestrationRun;
import java.time.Duration;

/**
 * Where this node places an activity call it issues (docs/workflows.md, "Local and queued
 * activities"): in the turn's process only when this node runs activities and registers this one;
 * then LOCAL always, AUTO when the call names no queue, no priority and no limit key (they are a
 * message's; docs/engine.md, "Flow limits") and the registration declares a timeout whose effective
 * value (the call's, else the registration's) is at most {@code localActivityMaxTimeout}. Pure: it
 * reads the registry and the settings only. Thread-safe: turn threads call it while the code runs.
 */
final class LocalPlacement implements OrchestrationRun.Placement {
  private final WorkflowRegistry registry;
  private final RuntimeSettings settings;

  LocalPlacement(WorkflowRegistry registry, RuntimeSettings settings) {
    this.registry = registry;
    this.settings = settings;
  }

  @Override
  public boolean local(String activity, ActivityOptions options) {
    ActivityPlacement placement = options.placement();
    if (placement == ActivityPlacement.QUEUED || !canRun(activity)) {
      return false;
    }
    if (placement == ActivityPlacement.LOCAL) {
      return true;
    }
    ActivityRegistration r = registry.activity(activity).orElseThrow();
    if (options.queue() != null || queuesAsMessage(options) || r.timeout() == null) {
      return false;
    }
    Duration timeout = options.timeout() != null ? options.timeout() : r.timeout();
    return timeout.compareTo(settings.localActivityMaxTimeout()) <= 0;
  }

  /**
   * True when the options say how the message queues (a priority, a limit key): they hold only for
   * a message, so AUTO queues such a call (LOCAL is the caller's explicit choice and ignores them).
   */
  private static boolean queuesAsMessage(ActivityOptions options) {
    return options.priority() != null || options.limitKey() != null;
  }

  /**
   * True when this node can run {@code activity} in a turn: it runs activities and has its code.
   */
  boolean canRun(String activity) {
    return settings.activities() && registry.activity(activity).isPresent();
  }
}
