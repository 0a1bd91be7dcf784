package io.redrive.store.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#abandonTurn}: the turn ends without a commit.
 *
 * @param instanceId the instance
 * @param token the turn token
 * @param delay no turn of the instance runs sooner (its rows arriving meanwhile included)
 * @param refund take this try back (a graceful shutdown): the counter goes down by one, never below
 *     0
 * @param outcome why the turn ended, for the turn row (e.g. UNREGISTERED, NONDETERMINISM)
 * @param reason a short machine reason, or null
 * @param message a human message, or null
 * @param now the engine's clock
 */
public record AbandonTurnParams(
    String instanceId,
    String token,
    Duration delay,
    boolean refund,
    String outcome,
    String reason,
    String message,
    Instant now) {
  public AbandonTurnParams {
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(now, "now");
    if (delay == null || delay.isNegative()) {
      throw new IllegalArgumentException("delay: must be zero or positive, was " + delay);
    }
    if (outcome == null || outcome.isBlank()) {
      throw new IllegalArgumentException("outcome is required");
    }
  }
}
