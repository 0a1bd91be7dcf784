package io.redrive.queue;

/** What later messages of a stream do when the stream's head fails. */
public enum StreamPolicy {
  /**
   * Later messages wait while the head waits for its retry; a completed or dead head frees them.
   */
  HOLD,
  /**
   * Like HOLD, but a dead head keeps the stream stopped until an operator retries or drops it. A
   * dead stream message of a HALT queue stays in place (it is not moved to the dead-letter queue)
   * so that the halt is visible and a retry restores the order.
   */
  HALT,
  /** Later messages go on while the head waits for its retry (availability over order). */
  RELEASE
}
