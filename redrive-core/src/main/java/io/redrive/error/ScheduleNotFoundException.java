package io.redrive.error;

/** The named schedule does not exist. */
public final class ScheduleNotFoundException extends NotFoundException {
  private final String schedule;

  public ScheduleNotFoundException(String schedule) {
    super("SCHEDULE_NOT_FOUND", "schedule \"" + schedule + "\" does not exist");
    this.schedule = schedule;
  }

  public String schedule() {
    return schedule;
  }
}
