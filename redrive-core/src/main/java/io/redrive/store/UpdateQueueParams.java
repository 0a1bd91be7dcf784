package io.redrive.store;

import io.redrive.queue.QueueUpdate;
import java.time.Instant;

/** Input of {@link Store#updateQueue}: the update is merged into the stored policy atomically. */
public record UpdateQueueParams(String name, QueueUpdate update, Instant now) {}
