package io.redrive.server.ui;

import io.redrive.message.Message;
import io.redrive.message.MessageState;
import io.redrive.queue.Queue;
import java.util.List;

/**
 * A page of a queue's messages.
 *
 * @param queue the queue
 * @param state the state shown, or null for every state
 * @param fingerprint only the dead-letter group with this key, or null
 * @param messages the page, in serve order
 * @param next the cursor of the next page, or null on the last
 */
public record MessagesView(
    Queue queue, MessageState state, String fingerprint, List<Message> messages, String next) {

  /** The query string that keeps this page's filters on the next page. */
  public String filters() {
    return (state == null ? "" : "&state=" + Fmt.css(state))
        + (fingerprint == null ? "" : "&fingerprint=" + Fmt.q(fingerprint));
  }
}
