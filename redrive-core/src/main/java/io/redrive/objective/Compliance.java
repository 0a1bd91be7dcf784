package io.redrive.objective;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The compliance rule: an {@link ObjectiveStatus} from the per-minute counts of an objective's
 * window. Pure (no store, no clock but the {@code now} it is given); thread-safe.
 *
 * <p>A window of {@code w} covers the minute {@code now} falls in and the {@code w/1m - 1} minutes
 * before it. Burn rate over a window is its bad share divided by the error budget ({@code 1 -
 * target}), as in the SRE workbook: at 1 the budget lasts exactly the objective's window. The
 * budget remaining is {@code 1 - badShare / budget} over the whole window; the time to exhaustion
 * assumes the short window's burn rate goes on: {@code remaining * window / burnRateShort}.
 */
public final class Compliance {
  /** The short burn-rate window: how fast the budget burns now. */
  public static final Duration SHORT = Duration.ofMinutes(5);

  /** The long burn-rate window: whether the burn lasts. */
  public static final Duration LONG = Duration.ofHours(1);

  private Compliance() {}

  /**
   * The status of {@code objective} at {@code now} from {@code minutes} (any order; minutes outside
   * its window are ignored).
   */
  public static ObjectiveStatus of(
      Objective objective, List<ObjectiveMinute> minutes, Instant now) {
    long[] all = sum(minutes, objective.window(), now);
    long[] shortSum = sum(minutes, SHORT, now);
    long[] longSum = sum(minutes, LONG, now);
    long total = all[0] + all[1];
    Double compliance = total == 0 ? null : (double) all[0] / total;
    double budget = objective.errorBudget();
    double remaining = total == 0 ? 1 : 1 - ((double) all[1] / total) / budget;
    double burnShort = burn(shortSum, budget);
    double burnLong = burn(longSum, budget);
    Duration exhaustion;
    if (remaining <= 0) {
      exhaustion = Duration.ZERO;
    } else if (burnShort <= 0) {
      exhaustion = null;
    } else {
      double seconds = remaining * objective.window().toSeconds() / burnShort;
      exhaustion = Duration.ofSeconds((long) Math.ceil(seconds));
    }
    return new ObjectiveStatus(
        objective,
        now,
        all[0],
        all[1],
        compliance,
        compliance != null && compliance < objective.target(),
        burnShort,
        burnLong,
        remaining,
        exhaustion);
  }

  /** The first minute a window of {@code window} ending at {@code now} covers. */
  public static Instant windowStart(Duration window, Instant now) {
    return now.truncatedTo(ChronoUnit.MINUTES).minus(window).plus(Duration.ofMinutes(1));
  }

  private static long[] sum(List<ObjectiveMinute> minutes, Duration window, Instant now) {
    Instant from = windowStart(window, now);
    long[] n = new long[2];
    for (ObjectiveMinute m : minutes) {
      if (!m.minute().isBefore(from) && !m.minute().isAfter(now)) {
        n[0] += m.within();
        n[1] += m.beyond();
      }
    }
    return n;
  }

  private static double burn(long[] n, double budget) {
    long total = n[0] + n[1];
    return total == 0 ? 0 : ((double) n[1] / total) / budget;
  }
}
