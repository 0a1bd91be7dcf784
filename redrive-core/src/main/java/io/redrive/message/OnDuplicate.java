package io.redrive.message;

/**
 * What an enqueue with a {@link NewMessage#uniqueKey} does when a message holding that key is still
 * waiting (enqueued and not yet leased).
 */
public enum OnDuplicate {
  /** Store nothing new: the answer names the waiting message as a duplicate. */
  KEEP,
  /**
   * The waiting message takes the new payload, headers and delay (and priority or {@code
   * expireAfter} when given), keeping its id and its place in line; its history records the
   * replacement.
   */
  REPLACE
}
