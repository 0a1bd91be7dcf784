package io.redrive.server.ui;

import io.redrive.message.Message;
import io.redrive.message.MessagePage;
import io.redrive.message.MessageState;
import io.redrive.message.PayloadField;
import io.redrive.queue.Queue;
import java.util.List;
import java.util.function.Predicate;

/**
 * A page of a queue's messages.
 *
 * @param queue the queue
 * @param state the state shown, or null for every state
 * @param fingerprint only the dead-letter group with this key, or null
 * @param type only the messages of this type, or null
 * @param payloadField only the messages with this value at this payload field, or null
 * @param messages the page, in serve order
 * @param nextHref the link to the next page, or null on the last
 * @param previousHref the link to the page before, or null on the first
 * @param mayAccess true for a queue the viewer may see (a copy's source queue outside the key's
 *     scope is not named, as in the API)
 */
public record MessagesView(
    Queue queue,
    MessageState state,
    String fingerprint,
    String type,
    PayloadField payloadField,
    List<Message> messages,
    String nextHref,
    String previousHref,
    Predicate<String> mayAccess) {

  /** The view of {@code page}, with links that keep its filters and the way back. */
  static MessagesView of(
      Queue queue,
      MessageState state,
      String fingerprint,
      String type,
      PayloadField payloadField,
      MessagePage page,
      Paging paging,
      Predicate<String> mayAccess) {
    String base = Dashboard.ROOT + "/queues/" + Fmt.seg(queue.name()) + "/messages?";
    String filters =
        (state == null ? "" : "&state=" + Fmt.css(state))
            + (fingerprint == null ? "" : "&fingerprint=" + Fmt.q(fingerprint))
            + (type == null ? "" : "&type=" + Fmt.q(type))
            + (payloadField == null
                ? ""
                : "&field=" + Fmt.q(payloadField.path()) + "&value=" + Fmt.q(payloadField.value()));
    String previous = paging.previousParams();
    return new MessagesView(
        queue,
        state,
        fingerprint,
        type,
        payloadField,
        page.messages(),
        page.next() == null ? null : base + paging.nextParams(Fmt.q(page.next())) + filters,
        previous == null ? null : base + previous + filters,
        mayAccess);
  }

  /** The filter form's field path, or empty. */
  public String fieldPath() {
    return payloadField == null ? "" : payloadField.path();
  }

  /** The filter form's value, or empty. */
  public String fieldValue() {
    return payloadField == null ? "" : payloadField.value();
  }

  /**
   * A row's attempts: {@code 2 / 5}, and for a dead-letter copy also those it used in its source
   * queue ({@code 0 / 5 · 5 in orders}), which the copy's own count (0) would hide.
   */
  public String attempts(Message m) {
    String here = m.attempts() + " / " + m.maxAttempts();
    if (m.sourceAttempts() == null) {
      return here;
    }
    return here
        + " · "
        + m.sourceAttempts()
        + " in "
        + (mayAccess.test(m.sourceQueue()) ? m.sourceQueue() : "its source queue");
  }
}
