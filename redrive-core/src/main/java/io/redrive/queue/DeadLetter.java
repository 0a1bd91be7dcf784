package io.redrive.queue;

/**
 * Where a message goes when it dies: kept in place as DEAD (default), moved to a dead-letter queue,
 * or discarded (deleted with a log line and a metric).
 *
 * @param mode what happens
 * @param queue the dead-letter queue for {@link Mode#MOVE}, otherwise null
 */
public record DeadLetter(Mode mode, String queue) {
  /** The three dead-letter behaviours. */
  public enum Mode {
    KEEP,
    MOVE,
    DISCARD
  }

  private static final DeadLetter KEEP = new DeadLetter(Mode.KEEP, null);
  private static final DeadLetter DISCARD = new DeadLetter(Mode.DISCARD, null);

  public DeadLetter {
    if (mode == null) {
      throw new IllegalArgumentException("deadLetter: mode is required");
    }
    if (mode == Mode.MOVE) {
      QueueNames.require("deadLetterQueue", queue);
    } else if (queue != null) {
      throw new IllegalArgumentException(
          "deadLetterQueue: only allowed when dead letters are moved, was \"" + queue + "\"");
    }
  }

  /** Keep dead messages in place (the default). */
  public static DeadLetter keep() {
    return KEEP;
  }

  /** Move dead messages to {@code queue}. */
  public static DeadLetter moveTo(String queue) {
    return new DeadLetter(Mode.MOVE, queue);
  }

  /** Delete dead messages. */
  public static DeadLetter discard() {
    return DISCARD;
  }
}
