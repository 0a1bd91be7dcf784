package io.redrive.schedule;

import java.time.Instant;

/**
 * A stored schedule and where its firing stands.
 *
 * @param schedule the definition
 * @param anchor when an interval schedule's due times are counted from
 * @param nextDueAt the next due time the scheduler fires (also while paused: the time it would)
 * @param lastDueAt the due time of the last firing, or null before the first
 * @param lastFiredAt when the last firing ran (the engine's clock), or null before the first
 * @param skipped due times missed in outages that catch-up did not fire, in all
 * @param createdAt when it was first saved
 * @param updatedAt when it was last saved, paused or resumed
 */
public record ScheduleInfo(
    Schedule schedule,
    Instant anchor,
    Instant nextDueAt,
    Instant lastDueAt,
    Instant lastFiredAt,
    long skipped,
    Instant createdAt,
    Instant updatedAt) {

  /** The schedule's name. */
  public String name() {
    return schedule.name();
  }
}
