package io.redrive.message;

/** How one history entry ended: a delivery's end, or an operator action on the message. */
public enum Outcome {
  /** The delivery is still running (shown for the current lease). */
  LEASED,
  COMPLETED,
  FAILED,
  ABANDONED,
  RELEASED,
  LEASE_EXPIRED,
  /**
   * The lease committed but its answer never reached the worker (the connection was lost during
   * COMMIT): the message was given back at once, ready, with the attempt refunded.
   */
  LEASE_UNDELIVERED,
  /** The lease that would have exceeded maxAttempts dead-lettered it instead of delivering. */
  POISONED,
  EXPIRED,
  /** An operator put the dead message back to ready in place (attempts reset). */
  RETRIED,
  /** An operator made the scheduled message visible at once (attempts kept). */
  RETRIED_NOW,
  /** An operator moved the dead message out of a dead-letter queue (attempts reset). */
  REDRIVEN,
  /** The message was moved into a dead-letter queue. */
  DEAD_LETTERED,
  /** The message entered this queue by import. */
  IMPORTED,
  /**
   * While the message waited, an enqueue with its unique key replaced its payload, headers and
   * visible time (it kept its id and place in line).
   */
  REPLACED
}
