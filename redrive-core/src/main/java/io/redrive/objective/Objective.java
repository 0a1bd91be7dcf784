package io.redrive.objective;

import io.redrive.queue.QueueNames;
import java.time.Duration;
import java.util.Locale;

/**
 * A queue-age objective: over {@code window}, at least {@code target} (a share between 0 and 1) of
 * the measured events must be within {@code bound}. Applies to a queue, optionally narrowed to one
 * message type or one stream. Immutable; the constructor validates (an {@link
 * IllegalArgumentException} names the field and value).
 *
 * @param name 1–200 characters of {@code [A-Za-z0-9._-]}
 * @param queue the queue measured (it need not exist yet: an objective of a missing queue measures
 *     nothing)
 * @param type only messages of this type, or null for every type
 * @param stream only messages of this stream, or null for every stream
 * @param kind what is measured
 * @param target the share that must be good, {@code 0 < target < 1} (0.95 for "95 %")
 * @param bound the wait (LATENCY) or oldest-ready age (AGE) that counts as good, at least 1 s
 * @param window the compliance window, whole minutes from {@link #MIN_WINDOW} to {@link
 *     #MAX_WINDOW}
 */
public record Objective(
    String name,
    String queue,
    String type,
    String stream,
    ObjectiveKind kind,
    double target,
    Duration bound,
    Duration window) {

  /** The shortest compliance window: as long as the longer burn-rate window. */
  public static final Duration MIN_WINDOW = Duration.ofHours(1);

  /** The longest compliance window; counts older than it are deleted. */
  public static final Duration MAX_WINDOW = Duration.ofDays(28);

  /** Validates every field. */
  public Objective {
    QueueNames.require("name", name);
    QueueNames.require("queue", queue);
    if (type != null && type.isBlank()) {
      throw new IllegalArgumentException("type: must not be blank, was \"" + type + "\"");
    }
    if (stream != null && stream.isBlank()) {
      throw new IllegalArgumentException("stream: must not be blank, was \"" + stream + "\"");
    }
    if (kind == null) {
      throw new IllegalArgumentException("kind: must be LATENCY or AGE, was null");
    }
    if (!(target > 0 && target < 1)) {
      throw new IllegalArgumentException(
          "target: must be between 0 and 1 exclusive (0.95 for 95 %), was " + target);
    }
    if (bound == null || bound.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("bound: must be at least 1s, was " + bound);
    }
    if (window == null
        || window.compareTo(MIN_WINDOW) < 0
        || window.compareTo(MAX_WINDOW) > 0
        || !window.equals(Duration.ofMinutes(window.toMinutes()))) {
      throw new IllegalArgumentException(
          "window: must be whole minutes between 1h and 28d, was " + window);
    }
  }

  /** The kind named {@code text}, case-insensitive. */
  public static ObjectiveKind kind(String text) {
    try {
      return ObjectiveKind.valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("kind: must be latency or age, was \"" + text + "\"");
    }
  }

  /** The share of events that may be bad: {@code 1 - target}. */
  public double errorBudget() {
    return 1 - target;
  }
}
