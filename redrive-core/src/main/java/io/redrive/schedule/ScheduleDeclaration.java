package io.redrive.schedule;

/**
 * What {@code redrive.schedules().declare} did.
 *
 * @param schedule the schedule as it is now
 * @param outcome whether it was created, changed or already as declared
 */
public record ScheduleDeclaration(ScheduleInfo schedule, Outcome outcome) {

  /** The three ways a declaration ends. */
  public enum Outcome {
    /** The schedule did not exist and was created. */
    CREATED,
    /** The schedule existed and its spec, target, jitter or catch-up differed. */
    UPDATED,
    /** The schedule existed as declared; nothing was written. */
    UNCHANGED
  }
}
