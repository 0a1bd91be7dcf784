package io.redrive.workflow;

import java.time.Duration;

/**
 * Thrown by a queued activity to slow down (a dependency answered 429): its message goes back
 * without using its attempt, visible again after {@link #delay()}, and its limit key (or its whole
 * queue, when it has none) is held for that long on every node, as a worker handler's {@code
 * HandlerResult.slowDown} does (docs/engine.md, "Flow limits"). The call neither fails nor spends a
 * retry of its {@link RetryPolicy}; the orchestration waits for the later delivery.
 *
 * <p>An activity run locally (in the turn's process) has no message or key to hold: there the
 * exception fails the try like any other throw, and the call's retry policy decides.
 */
public final class SlowDownException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Duration delay;

  /**
   * @param delay how long the key is held and the message waits; positive
   * @throws IllegalArgumentException naming {@code delay} when it is missing, zero or negative
   */
  public SlowDownException(Duration delay) {
    super("slow down for " + delay, null, false, false);
    if (delay == null || delay.isNegative() || delay.isZero()) {
      throw new IllegalArgumentException("delay: must be positive, was " + delay);
    }
    this.delay = delay;
  }

  /** How long the key is held and the message waits. */
  public Duration delay() {
    return delay;
  }
}
