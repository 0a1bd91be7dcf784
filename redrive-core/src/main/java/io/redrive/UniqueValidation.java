package io.redrive;

import io.redrive.message.NewMessage;
import io.redrive.message.OnDuplicate;
import io.redrive.time.DurationText;
import java.time.Duration;

/**
 * Checks of an enqueue's keys: the dedupe key, and the unique key with what a duplicate does and
 * its debounce window (docs/engine.md, "Unique and debounced messages").
 */
final class UniqueValidation {
  static final Duration MIN_DEBOUNCE = Duration.ofMillis(1);
  static final Duration MAX_DEBOUNCE = Duration.ofDays(30);

  private UniqueValidation() {}

  /** Refuses bad keys of message {@code m}, whose fields are named with prefix {@code at}. */
  static void keys(String at, NewMessage m) {
    Validation.name(at + "dedupeKey", m.dedupeKey(), false);
    Validation.name(at + "uniqueKey", m.uniqueKey(), false);
    if (m.uniqueKey() == null) {
      if (m.debounce() != null) {
        throw new IllegalArgumentException(
            at + "debounce: needs a uniqueKey, was " + DurationText.format(m.debounce()));
      }
      if (m.onDuplicate() != OnDuplicate.KEEP) {
        throw new IllegalArgumentException(
            at + "onDuplicate: needs a uniqueKey, was " + m.onDuplicate().name().toLowerCase());
      }
      return;
    }
    if (m.dedupeKey() != null) {
      // Both would decide what a second enqueue does, with different lifetimes; one key says it.
      throw new IllegalArgumentException(
          at
              + "uniqueKey: cannot be combined with dedupeKey (uniqueKey "
              + m.uniqueKey()
              + ", dedupeKey "
              + m.dedupeKey()
              + ")");
    }
    if (m.debounce() == null) {
      return;
    }
    Duration window = m.debounce();
    if (window.compareTo(MIN_DEBOUNCE) < 0 || window.compareTo(MAX_DEBOUNCE) > 0) {
      throw new IllegalArgumentException(
          at + "debounce: must be 1ms to 30d, was " + DurationText.format(window));
    }
    if (m.onDuplicate() == OnDuplicate.KEEP) {
      throw new IllegalArgumentException(
          at + "debounce: replaces the waiting message, so onDuplicate cannot be keep");
    }
    if (!m.delay().isZero()) {
      // The window is the delay, pushed on by each enqueue; a second delay would be ambiguous.
      throw new IllegalArgumentException(
          at
              + "debounce: cannot be combined with delay (debounce "
              + DurationText.format(window)
              + ", delay "
              + DurationText.format(m.delay())
              + ")");
    }
  }
}
