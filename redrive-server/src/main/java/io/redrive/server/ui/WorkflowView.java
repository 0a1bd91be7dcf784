package io.redrive.server.ui;

import io.redrive.workflow.InstanceDetail;
import io.redrive.workflow.InstanceInfo;
import io.redrive.workflow.TimelineEntry;
import io.redrive.workflow.WorkflowEvent;
import java.util.List;

/**
 * The instance page's model: the instance with what it waits on, its attempt-level timeline, one
 * page of its current execution's history, its children and what the visitor may do to it.
 *
 * @param detail the instance, what it waits on and what it has outstanding
 * @param input the input, pretty-printed when it is JSON
 * @param output the output, pretty-printed when it is JSON
 * @param customStatus the custom status, pretty-printed when it is JSON
 * @param timeline the attempt-level timeline, oldest first
 * @param history one page of history events, oldest first
 * @param execution the execution whose history is shown
 * @param historyNextHref the link to the next history page, or null on the last
 * @param historyPreviousHref the link to the history page before, or null on the first
 * @param historyAfter this history page's cursor (0: the first page)
 * @param children the direct children the key may see (at most {@link WorkflowPages#CHILDREN})
 * @param moreChildren true when there are more children than shown
 * @param activityMessages ids of the activity messages still on a queue, from the timeline
 * @param mayAdmin true when the visitor may retry, terminate and delete (ADMIN)
 * @param mayRaise true when the visitor may raise events (PRODUCE)
 */
public record WorkflowView(
    InstanceDetail detail,
    String input,
    String output,
    String customStatus,
    List<TimelineEntry> timeline,
    List<WorkflowEvent> history,
    int execution,
    String historyNextHref,
    String historyPreviousHref,
    long historyAfter,
    List<InstanceInfo> children,
    boolean moreChildren,
    List<String> activityMessages,
    boolean mayAdmin,
    boolean mayRaise) {

  /** The instance. */
  public InstanceInfo instance() {
    return detail.instance();
  }

  /**
   * True when a retry may bring it back: it failed for a system reason (poison, nondeterminism, a
   * missing version...). A failure its own code decided is final, and the server refuses to retry
   * it (NOT_RETRYABLE), so no button offers it.
   */
  public boolean retryable() {
    return instance().status() == io.redrive.workflow.InstanceStatus.FAILED
        && instance().failure() != null
        && instance().failure().isSystem();
  }

  /** True while it runs (pending or running): terminate and raise apply. */
  public boolean running() {
    return !instance().status().terminal();
  }

  /** True for an ended root: delete applies (a child goes with its root's tree). */
  public boolean deletable() {
    return instance().status().terminal() && instance().parentId() == null;
  }

  /** Every execution's number, oldest first, for the history's choice (continue-as-new). */
  public List<Integer> executions() {
    return java.util.stream.IntStream.rangeClosed(1, instance().executionId()).boxed().toList();
  }

  /** A timeline line's verdict class for its colour, as the message timeline's. */
  public static String kindOf(TimelineEntry e) {
    if (e.kind() == TimelineEntry.Kind.EVENT) {
      String k = e.event() == null ? "" : e.event();
      if (k.endsWith("FAILED") || k.endsWith("TERMINATED")) {
        return "dead";
      }
      return k.endsWith("COMPLETED") ? "ok" : "neutral";
    }
    String outcome = e.outcome() == null ? "" : e.outcome();
    return switch (outcome) {
      case "COMPLETED" -> "ok";
      case "IN_PROGRESS" -> "neutral";
      case "LEASE_EXPIRED", "TURN_TIMEOUT" -> "crash";
      case "RETRIED" -> "action"; // an operator's retry, not a failed try
      default -> "failed";
    };
  }
}
