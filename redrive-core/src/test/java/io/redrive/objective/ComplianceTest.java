package io.redrive.objective;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compliance rule on hand-made minutes: windows, burn rates, budget and exhaustion. */
class ComplianceTest {
  private static final Instant NOW = Instant.parse("2030-01-01T12:00:30Z");
  private static final Objective ONE_HOUR =
      new Objective(
          "o",
          "q",
          null,
          null,
          ObjectiveKind.LATENCY,
          0.9,
          Duration.ofMinutes(1),
          Duration.ofHours(1));

  private static ObjectiveMinute minute(int minutesAgo, long within, long beyond) {
    return new ObjectiveMinute(
        Instant.parse("2030-01-01T12:00:00Z").minus(Duration.ofMinutes(minutesAgo)),
        within,
        beyond);
  }

  @Test
  void burningSlowly_exhaustsAtTheShortBurnRate() {
    // 30 min ago: 100 good. Now: 19 good, 1 bad. Bad share 1/120; budget 0.1.
    ObjectiveStatus s = Compliance.of(ONE_HOUR, List.of(minute(30, 100, 0), minute(0, 19, 1)), NOW);
    assertThat(s.compliance()).isCloseTo(119.0 / 120, within(1e-12));
    assertThat(s.breached()).isFalse();
    assertThat(s.burnRateShort()).isCloseTo(0.5, within(1e-12)); // (1/20) / 0.1
    assertThat(s.burnRateLong()).isCloseTo((1.0 / 120) / 0.1, within(1e-12));
    assertThat(s.budgetRemaining()).isCloseTo(1 - (1.0 / 120) / 0.1, within(1e-12));
    // remaining x window / burn = (11/12) x 3600 s / 0.5
    assertThat(s.exhaustion()).isEqualTo(Duration.ofSeconds(6600));
  }

  @Test
  void minutesOutsideTheWindow_areIgnored_andNothingMeasuredIsNoCompliance() {
    ObjectiveStatus s = Compliance.of(ONE_HOUR, List.of(minute(60, 0, 50)), NOW);
    assertThat(s.within()).isZero();
    assertThat(s.beyond()).isZero();
    assertThat(s.compliance()).isNull();
    assertThat(s.breached()).isFalse();
    assertThat(s.budgetRemaining()).isEqualTo(1.0);
    assertThat(s.exhaustion()).isNull();
  }
}
