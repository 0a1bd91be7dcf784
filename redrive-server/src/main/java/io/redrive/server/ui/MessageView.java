package io.redrive.server.ui;

import io.redrive.message.Message;
import java.util.List;

/**
 * The message page's model.
 *
 * @param message the message with its history
 * @param payload the payload pretty-printed when it is JSON, else as stored
 * @param payloadIsJson true when {@code payload} was parsed and pretty-printed
 * @param timeline its story, oldest first
 * @param mayAct true when the viewer may retry, redrive or drop it
 */
public record MessageView(
    Message message,
    String payload,
    boolean payloadIsJson,
    List<TimelineRow> timeline,
    boolean mayAct) {

  /** True when the message can be retried in place (it is dead). */
  public boolean retryable() {
    return message.state() == io.redrive.message.MessageState.DEAD;
  }

  /**
   * True when it is a dead copy moved from another queue, which a redrive moves back (a redriven
   * message keeps its own queue as its source: nowhere else to go).
   */
  public boolean redrivable() {
    return retryable()
        && message.sourceQueue() != null
        && !message.sourceQueue().equals(message.queue());
  }
}
