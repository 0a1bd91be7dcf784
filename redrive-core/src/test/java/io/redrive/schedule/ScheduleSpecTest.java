package io.redrive.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleSpecTest {
  private static final Instant ANCHOR = Instant.parse("2026-01-01T00:00:00Z");

  private static List<Instant> next(ScheduleSpec spec, String after, int n) {
    List<Instant> out = new ArrayList<>();
    Instant t = Instant.parse(after);
    for (int i = 0; i < n; i++) {
      t = spec.nextAfter(t, ANCHOR).orElseThrow();
      out.add(t);
    }
    return out;
  }

  private static List<Instant> instants(String... texts) {
    return java.util.Arrays.stream(texts).map(Instant::parse).toList();
  }

  @Test
  void dailyCron_inTheSpringForwardGap_firesOnceAtTheGapsEnd() {
    // Europe/Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST (01:00Z).
    ScheduleSpec spec = ScheduleSpec.cron("30 2 * * *", "Europe/Berlin");
    assertThat(next(spec, "2026-03-27T12:00:00Z", 3))
        .isEqualTo(
            instants("2026-03-28T01:30:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"));
  }

  @Test
  void dailyCron_inTheFallBackOverlap_firesOnceAtTheFirstOccurrence() {
    // Europe/Berlin, 2026-10-25: 03:00 CEST goes back to 02:00 CET (01:00Z).
    ScheduleSpec spec = ScheduleSpec.cron("30 2 * * *", "Europe/Berlin");
    assertThat(next(spec, "2026-10-23T12:00:00Z", 3))
        .isEqualTo(
            instants("2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"));
  }

  @Test
  void hourlyCron_acrossBothTransitions_firesEveryRealHour() {
    ScheduleSpec spec = ScheduleSpec.cron("0 * * * *", "Europe/Berlin");
    assertThat(next(spec, "2026-03-28T23:30:00Z", 4))
        .isEqualTo(
            instants(
                "2026-03-29T00:00:00Z",
                "2026-03-29T01:00:00Z",
                "2026-03-29T02:00:00Z",
                "2026-03-29T03:00:00Z"));
    assertThat(next(spec, "2026-10-24T22:30:00Z", 4))
        .isEqualTo(
            instants(
                "2026-10-24T23:00:00Z",
                "2026-10-25T00:00:00Z",
                "2026-10-25T01:00:00Z",
                "2026-10-25T02:00:00Z"));
  }

  @Test
  void minutelyCron_acrossTheOverlap_firesEveryRealMinute() {
    ScheduleSpec spec = ScheduleSpec.cron("*/30 * * * *", "Europe/Berlin");
    assertThat(next(spec, "2026-10-24T23:50:00Z", 5))
        .isEqualTo(
            instants(
                "2026-10-25T00:00:00Z",
                "2026-10-25T00:30:00Z",
                "2026-10-25T01:00:00Z",
                "2026-10-25T01:30:00Z",
                "2026-10-25T02:00:00Z"));
  }

  @Test
  void newYorkCron_atBothTransitions_followsTheSameRules() {
    // America/New_York 2026: spring forward 03-08 02:00 EST -> 03:00 EDT (07:00Z);
    // fall back 11-01 02:00 EDT -> 01:00 EST (06:00Z).
    ScheduleSpec spec = ScheduleSpec.cron("30 2 * * *", "America/New_York");
    assertThat(next(spec, "2026-03-08T00:00:00Z", 1)).isEqualTo(instants("2026-03-08T07:00:00Z"));
    ScheduleSpec oneThirty = ScheduleSpec.cron("30 1 * * *", "America/New_York");
    assertThat(next(oneThirty, "2026-11-01T00:00:00Z", 2))
        .isEqualTo(instants("2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"));
  }

  @Test
  void sixFieldCron_readsSecondsFirst() {
    ScheduleSpec spec = ScheduleSpec.cron("*/15 * * * * *");
    assertThat(next(spec, "2026-05-01T00:00:01Z", 2))
        .isEqualTo(instants("2026-05-01T00:00:15Z", "2026-05-01T00:00:30Z"));
  }

  @Test
  void interval_countsFromTheAnchor() {
    ScheduleSpec spec = ScheduleSpec.every(Duration.ofMinutes(10));
    assertThat(next(spec, "2026-01-01T00:25:00Z", 2))
        .isEqualTo(instants("2026-01-01T00:30:00Z", "2026-01-01T00:40:00Z"));
    assertThat(next(spec, "2026-01-01T00:30:00Z", 1)).isEqualTo(instants("2026-01-01T00:40:00Z"));
  }

  @Test
  void invalidInput_isRefused_namingTheFieldAndValue() {
    assertThatThrownBy(() -> ScheduleSpec.cron("61 * * * *"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cron: invalid expression \"61 * * * *\"");
    assertThatThrownBy(() -> ScheduleSpec.cron("* * *"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cron: expected 5 fields");
    assertThatThrownBy(() -> ScheduleSpec.cron("0 3 * * *", "Mars/Olympus"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("zone: unknown time zone \"Mars/Olympus\"");
    assertThatThrownBy(() -> ScheduleSpec.every(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("interval: must be at least 1s, was ");
    assertThatThrownBy(() -> ScheduleSpec.every(Duration.ofSeconds(-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("interval: must be at least 1s");
  }
}
