package io.redrive.queue;

/**
 * What {@code Redrive.declareQueue} did.
 *
 * @param queue the queue as it is now
 * @param outcome whether it was created, changed or already as declared
 */
public record QueueDeclaration(Queue queue, Outcome outcome) {

  /** The three ways a declaration ends. */
  public enum Outcome {
    /** The queue did not exist and was created. */
    CREATED,
    /** The queue existed and some declared field differed. */
    UPDATED,
    /** The queue existed exactly as declared; nothing was written. */
    UNCHANGED
  }
}
