package io.redrive.spring;

import io.redrive.Redrive;
import io.redrive.error.NotFoundException;
import io.redrive.schedule.CatchUp;
import io.redrive.schedule.Schedule;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Declares the schedules of {@code redrive.schedules.*} on start, after every queue (those of the
 * properties, the {@link RedriveQueue} beans and the handlers' queues), which their targets may
 * name: each is read into a {@link Schedule} and handed to the engine's own reconciler, {@code
 * redrive.schedules().declare} (as the server does for redrive.toml): created when missing, saved
 * when it differs, its stored paused flag kept. Schedules are never deleted from properties. Every
 * schedule is read before any is declared, so a bad value stops the application, naming {@code
 * redrive.schedules.<name>}, before any schedule changes.
 */
final class ScheduleDeclarations {
  private ScheduleDeclarations() {}

  static void declare(Redrive redrive, Map<String, ScheduleProperties> properties) {
    List<Schedule> schedules = new ArrayList<>();
    properties.forEach((name, s) -> schedules.add(run(name, () -> schedule(name, s))));
    for (Schedule s : schedules) {
      run(s.name(), () -> redrive.schedules().declare(s));
    }
  }

  private static Schedule schedule(String name, ScheduleProperties s) {
    return Schedule.builder(name, spec(s), target(s))
        .jitter(s.getJitter())
        .catchUp(s.getCatchUp() == null ? CatchUp.ONCE : CatchUp.parse(s.getCatchUp()))
        .paused(s.isPaused())
        .build();
  }

  private static ScheduleSpec spec(ScheduleProperties s) {
    if ((s.getCron() == null) == (s.getEvery() == null)) {
      throw new IllegalArgumentException("give either cron or every");
    }
    if (s.getEvery() != null) {
      if (s.getZone() != null) {
        throw new IllegalArgumentException("zone: is only for cron, was \"" + s.getZone() + "\"");
      }
      return ScheduleSpec.every(s.getEvery());
    }
    return ScheduleSpec.cron(s.getCron(), s.getZone());
  }

  private static ScheduleTarget target(ScheduleProperties s) {
    if ((s.getQueue() == null) == (s.getWorkflow() == null)) {
      throw new IllegalArgumentException(
          "give either queue (and type) for a message or workflow for a workflow start");
    }
    if (s.getWorkflow() != null) {
      onlyFor("a message target (queue)", "type", s.getType());
      onlyFor("a message target (queue)", "payload", s.getPayload());
      onlyFor("a message target (queue)", "stream", s.getStream());
      onlyFor("a message target (queue)", "expire-after", s.getExpireAfter());
      if (!s.getHeaders().isEmpty()) {
        onlyFor("a message target (queue)", "headers", s.getHeaders());
      }
      return new ScheduleTarget.Workflow(s.getWorkflow(), s.getInput(), s.getVersion());
    }
    onlyFor("a workflow target", "input", s.getInput());
    onlyFor("a workflow target", "version", s.getVersion());
    if (s.getType() == null) {
      throw new IllegalArgumentException("type: is required for a message target");
    }
    return new ScheduleTarget.Message(
        s.getQueue(),
        s.getType(),
        s.getPayload(),
        s.getHeaders(),
        s.getStream(),
        s.getExpireAfter());
  }

  private static void onlyFor(String target, String property, Object value) {
    if (value != null) {
      throw new IllegalArgumentException(
          property + ": is only for " + target + ", was \"" + value + "\"");
    }
  }

  /** Runs one step for schedule {@code name}; bad input is reported under its properties. */
  private static <T> T run(String name, java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (IllegalArgumentException | NotFoundException e) {
      // Not chained: the message carries the whole story, and Spring shows the root cause.
      throw new IllegalArgumentException("redrive.schedules." + name + ": " + e.getMessage());
    }
  }
}
