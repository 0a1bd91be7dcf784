package io.redrive.store;

import java.time.Instant;

/**
 * Input of {@link Store#waitingTypes}: the queue, the latest ready time that counts, and how many
 * of the queue's oldest ready messages to read at most.
 */
public record WaitingTypesParams(String queue, Instant readyBefore, int scanLimit) {}
