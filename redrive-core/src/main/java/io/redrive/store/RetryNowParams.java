package io.redrive.store;

import java.time.Instant;
import java.util.List;

/**
 * Input of {@link Store#retryScheduledNow}: make SCHEDULED messages visible at {@code now}.
 *
 * @param ids the message ids (full ids, resolved by the engine)
 * @param actor who asked, recorded in the history entry (null when anonymous)
 * @param now the time the messages become visible
 */
public record RetryNowParams(List<String> ids, String actor, Instant now) {}
