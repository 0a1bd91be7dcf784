package io.redrive.store;

import io.redrive.message.NewMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Input of {@link Store#enqueue}: validated messages, each with the id the engine gave it.
 *
 * @param completionWindow a message whose {@code dedupeKey} was completed within this window before
 *     {@code now} is a duplicate of the completed one (zero: only live messages count)
 */
public record EnqueueParams(List<Entry> messages, Instant now, Duration completionWindow) {

  /** Messages deduplicated against live messages only. */
  public EnqueueParams(List<Entry> messages, Instant now) {
    this(messages, now, Duration.ZERO);
  }

  /** One message and its id. */
  public record Entry(String id, NewMessage message) {}
}
