package io.redrive.store;

import io.redrive.queue.QueuePolicy;
import java.time.Instant;

/** Input of {@link Store#createQueue}. */
public record CreateQueueParams(String name, QueuePolicy policy, Instant now) {}
