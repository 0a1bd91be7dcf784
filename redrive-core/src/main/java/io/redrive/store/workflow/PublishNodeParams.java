package io.redrive.store.workflow;

import java.time.Instant;
import java.util.Objects;

/**
 * Input of {@link WorkflowStore#publishNode}: what one live workflow node says it runs.
 *
 * @param nodeId the node's id (the row's key: a second node with the same id overwrites it)
 * @param buildId the code build it runs, or null
 * @param registrations what it registers, as JSON text the store never reads
 * @param startedAt when its runtime started
 * @param expiresAt the row counts as live until then, unless published again
 * @param now the engine's clock: rows that expired at or before it are deleted
 */
public record PublishNodeParams(
    String nodeId,
    String buildId,
    String registrations,
    Instant startedAt,
    Instant expiresAt,
    Instant now) {
  public PublishNodeParams {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(registrations, "registrations");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(now, "now");
    if (expiresAt == null || !expiresAt.isAfter(now)) {
      throw new IllegalArgumentException(
          "expiresAt: must be after now (" + now + "), was " + expiresAt);
    }
  }
}
