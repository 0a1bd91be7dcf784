package io.redrive.store;

import io.redrive.message.NewMessage;
import java.time.Instant;
import java.util.List;

/** Input of {@link Store#enqueue}: validated messages, each with the id the engine gave it. */
public record EnqueueParams(List<Entry> messages, Instant now) {
  /** One message and its id. */
  public record Entry(String id, NewMessage message) {}
}
