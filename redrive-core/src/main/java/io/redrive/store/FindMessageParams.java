package io.redrive.store;

import java.time.Instant;

/** Input of {@link Store#findMessage}; {@code now} tells a SCHEDULED message from a READY one. */
public record FindMessageParams(String id, Instant now) {}
