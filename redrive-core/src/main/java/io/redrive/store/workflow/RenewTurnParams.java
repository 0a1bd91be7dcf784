package io.redrive.store.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#renewTurn}.
 *
 * @param instanceId the instance
 * @param token the turn token
 * @param leaseTimeout the lease lasts this long from {@code now}
 * @param now the engine's clock
 */
public record RenewTurnParams(String instanceId, String token, Duration leaseTimeout, Instant now) {
  public RenewTurnParams {
    Objects.requireNonNull(instanceId, "instanceId");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(now, "now");
    if (leaseTimeout == null || leaseTimeout.isNegative() || leaseTimeout.isZero()) {
      throw new IllegalArgumentException("leaseTimeout: must be positive, was " + leaseTimeout);
    }
  }
}
