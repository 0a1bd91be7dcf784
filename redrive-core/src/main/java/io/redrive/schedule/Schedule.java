package io.redrive.schedule;

import io.redrive.queue.QueueNames;
import io.redrive.time.DurationText;
import java.time.Duration;
import java.time.Instant;

/**
 * A recurring schedule: at each due time of its {@code spec} the store produces its {@code target}
 * once, whatever the number of nodes firing. Immutable and thread-safe; build with {@link
 * #builder(String, ScheduleSpec, ScheduleTarget)}.
 *
 * @param name 1–{@value #MAX_NAME} characters of {@code [A-Za-z0-9._-]} (queue-name rules, shorter
 *     so that dedupe keys and instance ids built from it stay within 200 characters)
 * @param spec when it is due
 * @param target what each due time produces
 * @param jitter each produced message is delayed (or workflow start put off) by a time between 0
 *     and this, the same for a given due time; zero for none (the default)
 * @param catchUp what happens to due times missed while no node ran the scheduler
 * @param paused a paused schedule fires nothing; resuming goes on from the next due time after the
 *     resume
 */
public record Schedule(
    String name,
    ScheduleSpec spec,
    ScheduleTarget target,
    Duration jitter,
    CatchUp catchUp,
    boolean paused) {
  /** The longest schedule name. */
  public static final int MAX_NAME = 160;

  /** The longest jitter. */
  public static final Duration MAX_JITTER = Duration.ofDays(1);

  /** Header naming the schedule that produced a message. */
  public static final String HEADER_NAME = "redrive-schedule";

  /** Header with the due time (ISO-8601) that produced a message. */
  public static final String HEADER_DUE = "redrive-schedule-due";

  /**
   * @throws IllegalArgumentException naming the field and the value when one is missing or out of
   *     range; {@code jitter} and {@code catchUp} default to zero and {@link CatchUp#ONCE}
   */
  public Schedule {
    QueueNames.require("name", name);
    if (name.length() > MAX_NAME) {
      throw new IllegalArgumentException(
          "name: schedule name is "
              + name.length()
              + " characters long (at most "
              + MAX_NAME
              + ")");
    }
    if (spec == null) {
      throw new IllegalArgumentException("spec: a cron expression or an interval is required");
    }
    if (target == null) {
      throw new IllegalArgumentException("target: a message or a workflow is required");
    }
    jitter = jitter == null ? Duration.ZERO : jitter;
    if (jitter.isNegative() || jitter.compareTo(MAX_JITTER) > 0) {
      throw new IllegalArgumentException(
          "jitter: must be between 0 and 1d, was " + DurationText.format(jitter));
    }
    catchUp = catchUp == null ? CatchUp.ONCE : catchUp;
  }

  /** Starts a schedule of {@code spec} producing {@code target}. */
  public static Builder builder(String name, ScheduleSpec spec, ScheduleTarget target) {
    return new Builder(name, spec, target);
  }

  /** The same schedule paused or not. */
  public Schedule withPaused(boolean value) {
    return new Schedule(name, spec, target, jitter, catchUp, value);
  }

  /** The dedupe key of the message produced for {@code due}: {@code schedule:<name>:<epoch ms>}. */
  public String dedupeKey(Instant due) {
    return "schedule:" + name + ":" + due.toEpochMilli();
  }

  /** The id of the workflow instance started for {@code due}: {@code <name>-<epoch ms>}. */
  public String instanceId(Instant due) {
    return name + "-" + due.toEpochMilli();
  }

  /**
   * The delay of what is produced for {@code due}: between 0 and {@code jitter}, spread by the
   * schedule's name and the due time, so a retried firing of one due time delays it the same.
   */
  public Duration jitterFor(Instant due) {
    long range = jitter.toMillis();
    if (range <= 0) {
      return Duration.ZERO;
    }
    long h = name.hashCode() * 0x9E3779B97F4A7C15L + due.toEpochMilli();
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return Duration.ofMillis(Math.floorMod(h, range + 1));
  }

  /** Builder of {@link Schedule}; not thread-safe. */
  public static final class Builder {
    private final String name;
    private final ScheduleSpec spec;
    private final ScheduleTarget target;
    private Duration jitter = Duration.ZERO;
    private CatchUp catchUp = CatchUp.ONCE;
    private boolean paused;

    private Builder(String name, ScheduleSpec spec, ScheduleTarget target) {
      this.name = name;
      this.spec = spec;
      this.target = target;
    }

    public Builder jitter(Duration value) {
      this.jitter = value;
      return this;
    }

    public Builder catchUp(CatchUp value) {
      this.catchUp = value;
      return this;
    }

    public Builder paused(boolean value) {
      this.paused = value;
      return this;
    }

    public Schedule build() {
      return new Schedule(name, spec, target, jitter, catchUp, paused);
    }
  }
}
