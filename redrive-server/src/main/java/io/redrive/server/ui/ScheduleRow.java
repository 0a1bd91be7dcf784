package io.redrive.server.ui;

import io.redrive.schedule.CatchUp;
import io.redrive.schedule.ScheduleInfo;
import io.redrive.schedule.ScheduleSpec;
import io.redrive.schedule.ScheduleTarget;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.time.ZoneOffset;

/**
 * One schedule as the schedules pages show it: its spec, target, catch-up and jitter in words, and
 * where its firing stands ({@link ScheduleInfo}).
 *
 * @param info the stored schedule and its next and last due and fire times
 */
public record ScheduleRow(ScheduleInfo info) {

  /** The schedule's name. */
  public String name() {
    return info.name();
  }

  /**
   * When it is due: {@code 30 2 * * * (Europe/Berlin)}, {@code 0 3 * * * (UTC)} or {@code every
   * 5m}.
   */
  public String specText() {
    return info.schedule().spec() instanceof ScheduleSpec.Cron c
        ? c.expression() + " (" + (c.zone().equals(ZoneOffset.UTC) ? "UTC" : c.zone().getId()) + ")"
        : "every " + DurationText.format(((ScheduleSpec.Every) info.schedule().spec()).interval());
  }

  /** The message target, or null for a workflow schedule. */
  public ScheduleTarget.Message message() {
    return info.schedule().target() instanceof ScheduleTarget.Message m ? m : null;
  }

  /** The workflow target, or null for a message schedule. */
  public ScheduleTarget.Workflow workflow() {
    return info.schedule().target() instanceof ScheduleTarget.Workflow w ? w : null;
  }

  /** What catch-up does with due times missed while no node ran: in words. */
  public String catchUpText() {
    CatchUp c = info.schedule().catchUp();
    return switch (c.mode()) {
      case ONCE -> "once (the latest missed)";
      case SKIP -> "skip missed";
      case ALL -> "all missed, up to " + c.limit();
    };
  }

  /** The jitter, or {@code none}. */
  public String jitterText() {
    Duration j = info.schedule().jitter();
    return j.isZero() ? "none" : "up to " + DurationText.format(j);
  }

  /** True while it is paused. */
  public boolean paused() {
    return info.schedule().paused();
  }
}
