package io.redrive.worker;

/** How a message's run went as far as its runner is concerned. */
enum Ran {
  COMPLETED,
  NOT_COMPLETED,
  /**
   * Handed to the settle thread: the runner goes back to the pool at once, but the slot stays taken
   * until the settle commits, so a message that kills the process right after cannot cost an
   * earlier message of the same slot its settle.
   */
  SETTLING
}
