package io.redrive.store.workflow;

import java.time.Instant;

/**
 * A live workflow node as it last published itself (table {@code redrive_wf_nodes}).
 *
 * @param nodeId the node's id
 * @param buildId the code build it runs, or null
 * @param registrations what it registers, the JSON text it published
 * @param startedAt when its runtime started
 * @param seenAt when it last published
 * @param expiresAt it counts as live until then
 */
public record NodeRow(
    String nodeId,
    String buildId,
    String registrations,
    Instant startedAt,
    Instant seenAt,
    Instant expiresAt) {}
