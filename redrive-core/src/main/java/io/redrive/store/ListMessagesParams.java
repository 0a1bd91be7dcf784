package io.redrive.store;

import io.redrive.message.MessageQuery;
import java.time.Instant;

/** Input of {@link Store#listMessages}; {@code now} tells a SCHEDULED message from a READY one. */
public record ListMessagesParams(MessageQuery query, Instant now) {}
