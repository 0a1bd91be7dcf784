package io.redrive.server.config;

import io.redrive.Redrive;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleDeclaration;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the declared schedules of a {@link ServerConfig} at start (after the declared queues,
 * which their targets may name): each is created, or saved when it differs ({@code
 * redrive.schedules().declare}); schedules are never deleted by the file, and an operator's pause
 * survives unless the schedule's table says {@code paused} (true or false), which then wins.
 */
public final class ScheduleDeclarations {
  private ScheduleDeclarations() {}

  /**
   * Declares every schedule of {@code config}; returns the log line ({@code declared schedules:
   * created [...]; updated [...]; unchanged [...]}), or null when the file declares none.
   *
   * @throws IllegalArgumentException naming the schedule when one cannot be declared (e.g. its
   *     queue does not exist)
   */
  public static String apply(Redrive redrive, ServerConfig config) {
    if (config.schedules().isEmpty()) {
      return null;
    }
    List<String> created = new ArrayList<>();
    List<String> updated = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    for (Schedule s : config.schedules()) {
      ScheduleDeclaration d;
      try {
        d = redrive.schedules().declare(s, config.pauseDeclared().contains(s.name()));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("schedules." + s.name() + ": " + e.getMessage(), e);
      }
      switch (d.outcome()) {
        case CREATED -> created.add(s.name());
        case UPDATED -> updated.add(s.name());
        case UNCHANGED -> unchanged.add(s.name());
      }
    }
    return "declared schedules: created "
        + created
        + "; updated "
        + updated
        + "; unchanged "
        + unchanged;
  }
}
