package io.redrive.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The firing rule, a pure function the stores apply inside their firing transaction: given a
 * schedule whose next due time has come, which due times produce something now, how many are
 * skipped and which due time comes next. Thread-safe (stateless).
 *
 * <p>All due times at or before {@code now} are due; normally that is one, more after an outage.
 * {@link CatchUp.Mode#ONCE} fires the latest; {@link CatchUp.Mode#ALL} the latest {@code limit}
 * (oldest first); {@link CatchUp.Mode#SKIP} only the latest, and only when it is at most {@link
 * #LATE_TOLERANCE} late, so an on-time firing still happens. The rest are skipped and counted (up
 * to {@link #MAX_COUNTED} per firing).
 */
public final class DueTimes {
  /**
   * How late a due time may fire under {@link CatchUp#SKIP}: later than this it counts as missed.
   */
  public static final Duration LATE_TOLERANCE = Duration.ofMinutes(1);

  /** The most skipped due times one firing counts. */
  public static final int MAX_COUNTED = 1_000;

  private DueTimes() {}

  /**
   * What one firing does.
   *
   * @param fire the due times that produce something, oldest first
   * @param skipped the missed due times that do not
   * @param nextDueAt the first due time after {@code now}, or null when none comes
   */
  public record Plan(List<Instant> fire, long skipped, Instant nextDueAt) {}

  /**
   * The plan of a firing at {@code now} of a schedule next due at {@code nextDueAt} (at or before
   * {@code now}).
   */
  public static Plan plan(
      ScheduleSpec spec, Instant anchor, CatchUp catchUp, Instant nextDueAt, Instant now) {
    Instant next = spec.nextAfter(now, anchor).orElse(null);
    if (nextDueAt.isAfter(now)) {
      return new Plan(List.of(), 0, nextDueAt);
    }
    int wanted = catchUp.mode() == CatchUp.Mode.ALL ? catchUp.limit() : 1;
    List<Instant> latest = latest(spec, anchor, nextDueAt, now, wanted);
    List<Instant> fire = latest;
    if (catchUp.mode() == CatchUp.Mode.SKIP
        && Duration.between(latest.get(0), now).compareTo(LATE_TOLERANCE) > 0) {
      fire = List.of();
    }
    Instant countUntil = fire.isEmpty() ? now : fire.get(0).minusMillis(1);
    long skipped = count(spec, anchor, nextDueAt, countUntil);
    return new Plan(fire, skipped, next);
  }

  /** The latest {@code n} due times in [{@code from}, {@code now}], oldest first (at least one). */
  static List<Instant> latest(ScheduleSpec spec, Instant anchor, Instant from, Instant now, int n) {
    long window = 60_000;
    while (true) {
      Instant start = now.minusMillis(window);
      boolean whole = !start.isAfter(from);
      Deque<Instant> found = new ArrayDeque<>();
      Instant d = whole ? from : spec.nextAfter(start.minusMillis(1), anchor).orElse(null);
      while (d != null && !d.isAfter(now)) {
        found.addLast(d);
        if (found.size() > n) {
          found.removeFirst();
        }
        d = spec.nextAfter(d, anchor).orElse(null);
      }
      if (found.size() >= n || whole) {
        return found.isEmpty() ? List.of(from) : new ArrayList<>(found);
      }
      window = Math.multiplyExact(window, 4);
    }
  }

  /** How many due times lie in [{@code from}, {@code until}], at most {@link #MAX_COUNTED}. */
  static long count(ScheduleSpec spec, Instant anchor, Instant from, Instant until) {
    if (from.isAfter(until)) {
      return 0;
    }
    if (spec instanceof ScheduleSpec.Every every) {
      long step = every.interval().toMillis();
      return Math.min(MAX_COUNTED, (until.toEpochMilli() - from.toEpochMilli()) / step + 1);
    }
    long n = 0;
    Optional<Instant> d = Optional.of(from);
    while (d.isPresent() && !d.get().isAfter(until) && n < MAX_COUNTED) {
      n++;
      d = spec.nextAfter(d.get(), anchor);
    }
    return n;
  }
}
