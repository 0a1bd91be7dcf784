package io.redrive.trace;

import io.redrive.failure.FailureReason;
import java.time.Duration;

/**
 * Something that happened to a delivery, for {@link HandlerTrace#event}: the same words as the
 * message's attempt history.
 *
 * @param kind what happened
 * @param attempt the delivery's attempt number
 * @param worker the worker that held the lease
 * @param reason why it failed, was given back or died, or null
 * @param detail the failure message, or why the lease was given back or lost, or null
 * @param delay how long until the next delivery ({@link Kind#RETRY_SCHEDULED}, {@link
 *     Kind#ABANDONED}), or null
 * @param deadLetterQueue the dead-letter queue a {@link Kind#DEAD_LETTERED} message moved to, or
 *     null (kept in place or discarded)
 */
public record DeliveryEvent(
    Kind kind,
    int attempt,
    String worker,
    FailureReason reason,
    String detail,
    Duration delay,
    String deadLetterQueue) {

  /** What happened to the delivery; {@link #eventName()} is its name in a trace. */
  public enum Kind {
    /** The worker took the lease and is about to run the handler. */
    LEASED("leased"),
    /** The handler finished and the message completed. */
    COMPLETED("completed"),
    /** The attempt failed and the message will be delivered again after {@code delay}. */
    RETRY_SCHEDULED("retry scheduled"),
    /** The attempt failed for good: the message is dead (in place, in its DLQ, or discarded). */
    DEAD_LETTERED("dead-lettered"),
    /** The handler ran past its timeout; the failure is settled as TIMEOUT_EXCEEDED. */
    TIMED_OUT("timed out"),
    /** The lease was given back (visible again after {@code delay}). */
    ABANDONED("abandoned"),
    /** The lease was lost (expired and taken by another worker): this result was discarded. */
    LEASE_LOST("lease lost"),
    /** The settle could not be written; the lease expires and the message comes back. */
    SETTLE_FAILED("settle failed");

    private final String eventName;

    Kind(String eventName) {
      this.eventName = eventName;
    }

    public String eventName() {
      return eventName;
    }
  }

  public DeliveryEvent {
    if (kind == null) {
      throw new IllegalArgumentException("kind: is required");
    }
  }

  /** An event with no reason, detail or delay. */
  public static DeliveryEvent of(Kind kind, int attempt, String worker) {
    return new DeliveryEvent(kind, attempt, worker, null, null, null, null);
  }
}
