package io.redrive.server.ui;

import io.redrive.message.Message;
import io.redrive.message.MessagePage;
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
 * @param nextHref the link to the next page, or null on the last
 * @param previousHref the link to the page before, or null on the first
 */
public record MessagesView(
    Queue queue,
    MessageState state,
    String fingerprint,
    List<Message> messages,
    String nextHref,
    String previousHref) {

  /** The view of {@code page}, with links that keep its filters and the way back. */
  static MessagesView of(
      Queue queue, MessageState state, String fingerprint, MessagePage page, Paging paging) {
    String base = Dashboard.ROOT + "/queues/" + Fmt.seg(queue.name()) + "/messages?";
    String filters =
        (state == null ? "" : "&state=" + Fmt.css(state))
            + (fingerprint == null ? "" : "&fingerprint=" + Fmt.q(fingerprint));
    String previous = paging.previousParams();
    return new MessagesView(
        queue,
        state,
        fingerprint,
        page.messages(),
        page.next() == null ? null : base + paging.nextParams(Fmt.q(page.next())) + filters,
        previous == null ? null : base + previous + filters);
  }
}
