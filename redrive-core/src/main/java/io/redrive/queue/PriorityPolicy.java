package io.redrive.queue;

import io.redrive.time.DurationText;
import java.time.Duration;

/**
 * How a queue orders messages of different priorities. Immutable and validated on construction;
 * every error names the setting and the value.
 *
 * <p>A message's priority is an integer from {@value #MIN_PRIORITY} to {@value #MAX_PRIORITY};
 * higher is served first. At enqueue the store gives the message a head start of {@code priority ×
 * aging}, and ready messages are served in order of {@code (visibleAt − headStart, enqueue
 * sequence)}: a priority-p message is served as if it had become visible p × aging earlier. So a
 * priority is FIFO within itself, higher priorities go first, and nothing starves: a priority-0
 * message that has waited 9 × aging goes before any priority-9 message enqueued after that. The
 * head start is fixed at enqueue, so a change of {@code aging} applies to messages enqueued after
 * it.
 *
 * @param defaultPriority the priority of a message enqueued without one (0–9)
 * @param aging the head start one step of priority is worth (1s–1d)
 */
public record PriorityPolicy(int defaultPriority, Duration aging) {

  /** Lowest priority. */
  public static final int MIN_PRIORITY = 0;

  /** Highest priority. */
  public static final int MAX_PRIORITY = 9;

  /** Default {@code defaultPriority}. */
  public static final int DEFAULT_PRIORITY = 0;

  /** Default {@code aging}. */
  public static final Duration DEFAULT_AGING = Duration.ofMinutes(1);

  /** Shortest allowed {@code aging}. */
  public static final Duration MIN_AGING = Duration.ofSeconds(1);

  /** Longest allowed {@code aging}. */
  public static final Duration MAX_AGING = Duration.ofDays(1);

  public PriorityPolicy {
    requirePriority("defaultPriority", defaultPriority);
    requireAging(aging);
  }

  /** Default priority 0, aging 1 minute. */
  public static PriorityPolicy defaults() {
    return new PriorityPolicy(DEFAULT_PRIORITY, DEFAULT_AGING);
  }

  /** This policy with another default priority. */
  public PriorityPolicy withDefaultPriority(int value) {
    return new PriorityPolicy(value, aging);
  }

  /** This policy with another aging. */
  public PriorityPolicy withAging(Duration value) {
    return new PriorityPolicy(defaultPriority, value);
  }

  /** The head start of a message of {@code priority} in milliseconds: priority × aging. */
  public long headStartMillis(int priority) {
    return requirePriority("priority", priority) * aging.toMillis();
  }

  /**
   * Validates a priority given anywhere ({@code field} names it in the message: a message's {@code
   * priority}, a queue's {@code defaultPriority}).
   */
  public static int requirePriority(String field, int value) {
    if (value < MIN_PRIORITY || value > MAX_PRIORITY) {
      throw new IllegalArgumentException(
          field
              + ": must be between "
              + MIN_PRIORITY
              + " and "
              + MAX_PRIORITY
              + " (higher is served first), was "
              + value);
    }
    return value;
  }

  /** Validates an {@code priorityAging} given anywhere (policy, update, configuration). */
  public static Duration requireAging(Duration value) {
    if (value == null || value.compareTo(MIN_AGING) < 0 || value.compareTo(MAX_AGING) > 0) {
      throw new IllegalArgumentException(
          "priorityAging: must be between 1s and 1d, was "
              + (value == null ? "null" : DurationText.format(value)));
    }
    return value;
  }
}
