package io.redrive.error;

/** The named queue does not exist. */
public final class QueueNotFoundException extends NotFoundException {
  private final String queue;

  public QueueNotFoundException(String queue) {
    super("QUEUE_NOT_FOUND", "queue \"" + queue + "\" does not exist");
    this.queue = queue;
  }

  public String queue() {
    return queue;
  }
}
