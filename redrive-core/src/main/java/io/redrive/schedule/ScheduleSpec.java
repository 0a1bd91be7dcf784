package io.redrive.schedule;

import io.redrive.time.DurationText;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * When a schedule is due: a cron expression evaluated in a time zone ({@link Cron}) or a fixed
 * interval ({@link Every}). Immutable and thread-safe.
 */
public sealed interface ScheduleSpec {

  /** The shortest interval: one second, the resolution of the scheduler's wake-ups. */
  Duration MIN_INTERVAL = Duration.ofSeconds(1);

  /**
   * The first due time strictly after {@code after}.
   *
   * @param anchor when an interval schedule's due times are counted from (its first due time minus
   *     one interval); cron ignores it
   * @return empty when the spec is never due again (a cron naming a date that does not come)
   */
  Optional<Instant> nextAfter(Instant after, Instant anchor);

  /** A cron expression (5 fields, or 6 with seconds first) evaluated in UTC. */
  static Cron cron(String expression) {
    return new Cron(expression, ZoneOffset.UTC);
  }

  /** A cron expression (5 fields, or 6 with seconds first) evaluated in {@code zone}. */
  static Cron cron(String expression, String zone) {
    if (zone == null || zone.isBlank()) {
      return cron(expression);
    }
    try {
      return new Cron(expression, ZoneId.of(zone.trim()));
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("zone: unknown time zone \"" + zone + "\"", e);
    }
  }

  /** Due every {@code interval}, counted from the schedule's creation. */
  static Every every(Duration interval) {
    return new Every(interval);
  }

  /**
   * A cron expression in a time zone. Local times that do not exist (the spring-forward gap) fire
   * once at the first instant after the gap; local times that happen twice (fall back) fire once,
   * at the first occurrence, unless the hour field is {@code *}, in which case the repeated hour
   * fires again so that hourly and minutely schedules keep their pace in real time.
   *
   * @param expression 5 fields ({@code minute hour day-of-month month day-of-week}) or 6 with
   *     seconds first
   * @param zone the zone the fields are read in
   */
  record Cron(String expression, ZoneId zone) implements ScheduleSpec {
    /**
     * @throws IllegalArgumentException naming {@code cron} or {@code zone} and the value when the
     *     expression does not parse or the zone is missing
     */
    public Cron {
      if (zone == null) {
        throw new IllegalArgumentException("zone: is required");
      }
      expression = CronTimes.normalize(expression);
    }

    @Override
    public Optional<Instant> nextAfter(Instant after, Instant anchor) {
      return CronTimes.of(expression).nextAfter(after, zone);
    }

    @Override
    public String toString() {
      return expression + " (" + zone.getId() + ")";
    }
  }

  /**
   * A fixed interval: due at {@code anchor + k × interval} for k = 1, 2, ..., where the store sets
   * the anchor to the time the schedule was created (or its interval last changed).
   *
   * @param interval at least {@link #MIN_INTERVAL}, whole milliseconds
   */
  record Every(Duration interval) implements ScheduleSpec {
    /**
     * @throws IllegalArgumentException naming {@code interval} and the value when it is missing,
     *     below one second or has sub-millisecond parts
     */
    public Every {
      if (interval == null) {
        throw new IllegalArgumentException("interval: is required");
      }
      if (interval.compareTo(MIN_INTERVAL) < 0) {
        throw new IllegalArgumentException(
            "interval: must be at least 1s, was " + DurationText.format(interval));
      }
      if (interval.getNano() % 1_000_000 != 0) {
        throw new IllegalArgumentException(
            "interval: must be whole milliseconds, was " + DurationText.format(interval));
      }
    }

    @Override
    public Optional<Instant> nextAfter(Instant after, Instant anchor) {
      long step = interval.toMillis();
      long from = anchor.toEpochMilli();
      long at = after.toEpochMilli();
      long k = at < from ? 1 : Math.floorDiv(at - from, step) + 1;
      return Optional.of(Instant.ofEpochMilli(from + k * step));
    }

    @Override
    public String toString() {
      return "every " + DurationText.format(interval);
    }
  }
}
