package io.redrive.store;

import io.redrive.deadletter.ImportMessage;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/** Input of {@link Store#importMessages}. */
public record ImportParams(
    String queue, List<ImportMessage> messages, Supplier<String> ids, Instant now) {}
