package io.redrive.message;

/**
 * What an enqueue did with one message.
 *
 * @param id the message id: the new message's, or the one already there that answered for it
 * @param duplicate true when nothing new was stored because a message with the same dedupe key was
 *     in the queue (or completed within the completion window), or a message holding the same
 *     unique key was waiting and {@link OnDuplicate#KEEP} kept it; its id is returned instead
 * @param replaced true when a message holding the same unique key was waiting and took this
 *     enqueue's payload, headers and delay ({@link OnDuplicate#REPLACE}, or a debounce); its id is
 *     returned
 */
public record EnqueueResult(String id, boolean duplicate, boolean replaced) {

  /** A message created ({@code duplicate} false) or answered by a dedupe hit. */
  public EnqueueResult(String id, boolean duplicate) {
    this(id, duplicate, false);
  }

  /** A waiting message with the same unique key took this enqueue's content. */
  public static EnqueueResult replacedBy(String id) {
    return new EnqueueResult(id, false, true);
  }

  /** Whether a new message was stored. */
  public boolean created() {
    return !duplicate && !replaced;
  }
}
