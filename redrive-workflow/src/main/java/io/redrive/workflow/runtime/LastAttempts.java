package io.redrive.workflow.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.redrive.failure.FailureReason;
import io.redrive.store.workflow.TurnLease;
import io.redrive.store.workflow.TurnRow;
import io.redrive.workflow.WorkflowFailure;
import io.redrive.workflow.history.Delivery;
import java.util.List;
import java.util.Set;

/**
 * The {@code lastAttempt} of a poison failure (docs/workflows.md, "What happens when things fail"):
 * how the last counted try ended, so the failure names its cause rather than only the count. For an
 * orchestration, the last turn row since the last commit; for an activity (queued or local alike),
 * the last delivery of its attempt story that ended without a result. Stateless.
 */
final class LastAttempts {
  /** Deliveries that were counted and brought no result: the tries a poison ran out of. */
  private static final Set<String> COUNTED_WITHOUT_RESULT =
      Set.of("ABANDONED", "LEASE_EXPIRED", "FAILED");

  private LastAttempts() {}

  /** The last try of the lease's batch that ended without a commit, or null when none did. */
  static WorkflowFailure ofTurns(TurnLease lease) {
    if (lease.turns().isEmpty()) {
      return null;
    }
    TurnRow t = lease.turns().get(lease.turns().size() - 1);
    String message = t.message() != null ? t.message() : t.outcome() + " on " + t.node();
    // A row's reason says more than its outcome when it is a reason every layer shares (a payload
    // that does not decode is a NONDETERMINISM bounce with reason SERIALIZATION_ERROR).
    String reason = failureReason(t.reason()) != null ? t.reason() : t.outcome();
    return new WorkflowFailure(
        reason,
        turnCategory(t.outcome()),
        message,
        null,
        null,
        false,
        null,
        t.attempt(),
        null,
        null,
        lease.instance().id(),
        t.executionId(),
        null,
        null,
        null,
        List.of(),
        null,
        null,
        t.outcome() + (t.node() == null ? "" : " on " + t.node()) + ": " + message);
  }

  /**
   * The last delivery of an activity's attempt story that was counted and brought no result (an
   * abandon such as UNREGISTERED_HANDLER, an expired lease), or null when the story has none.
   *
   * @param attempts the story as the store (or a local run) wrote it
   */
  static WorkflowFailure ofDeliveries(
      JsonNode attempts,
      String instanceId,
      int executionId,
      String activityName,
      long activityId,
      int maxAttempts) {
    List<Delivery> story = Delivery.of(attempts);
    for (int i = story.size() - 1; i >= 0; i--) {
      Delivery d = story.get(i);
      if (d.outcome() == null || !COUNTED_WITHOUT_RESULT.contains(d.outcome())) {
        continue;
      }
      String reason = d.reason() != null ? d.reason() : d.outcome();
      String message = d.error() != null ? d.error() : "";
      FailureReason known = failureReason(reason);
      return new WorkflowFailure(
          reason,
          known == null ? "infrastructure" : known.category().name(),
          message,
          null,
          null,
          false,
          null,
          d.attempt(),
          maxAttempts,
          null,
          instanceId,
          executionId,
          activityName,
          activityId,
          null,
          List.of(),
          null,
          null,
          reason
              + (d.worker() == null ? "" : " on " + d.worker())
              + (message.isEmpty() ? "" : ": " + message));
    }
    return null;
  }

  private static String turnCategory(String outcome) {
    return switch (outcome) {
      case "NONDETERMINISM" -> "nondeterminism";
      case "UNREGISTERED" -> "configuration";
      default -> "infrastructure";
    };
  }

  private static FailureReason failureReason(String name) {
    if (name == null) {
      return null;
    }
    try {
      return FailureReason.valueOf(name);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
