package io.redrive.store;

import io.redrive.failure.FailureReason;
import io.redrive.message.MessageState;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Input of {@link Store#dropMessages}: either explicit {@code ids}, or a filter on one queue
 * ({@code queue} with optional states, type, dead reason and fingerprint) and a limit.
 */
public record DropParams(
    List<String> ids,
    String queue,
    Set<MessageState> states,
    String type,
    FailureReason deadReason,
    String fingerprint,
    int limit,
    Instant now) {}
