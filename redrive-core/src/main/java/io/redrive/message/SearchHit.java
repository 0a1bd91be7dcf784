package io.redrive.message;

/**
 * A message found by {@code Redrive.search}: how the text matched it, and where it is now.
 *
 * @param match {@code ID} (the whole id), {@code PREFIX} (the start of its id), {@code MOVED} (an
 *     id it had before a dead-letter move: this is where it is now) or {@code DEDUPE_KEY}
 */
public record SearchHit(Match match, String id, String queue, MessageState state) {
  /** How a search text matched a message. */
  public enum Match {
    ID,
    PREFIX,
    MOVED,
    DEDUPE_KEY
  }
}
