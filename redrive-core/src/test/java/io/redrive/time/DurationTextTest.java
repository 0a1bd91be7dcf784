package io.redrive.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationTextTest {
  @ParameterizedTest
  @CsvSource({"500ms,PT0.5S", "30s,PT30S", "5m,PT5M", "2h,PT2H", "1d,PT24H", " 7s ,PT7S"})
  void parse_unitForm_givesDuration(String text, String iso) {
    assertThat(DurationText.parse("f", text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @CsvSource({
    "1m30s,PT1M30S",
    "2h30m,PT2H30M",
    "1d2h,PT26H",
    "1m4s555ms,PT1M4.555S",
    "1h 5m,PT1H5M",
    "1D2H,PT26H",
    "90s,PT90S",
    "1500ms,PT1.5S"
  })
  void parse_compoundForm_addsTheParts(String text, String iso) {
    assertThat(DurationText.parse("f", text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", "x", "5", "5x", "-5s", "1.5s", "s", "1m30", "30s1m", "1m1m", "1s 5", "1h-5m", "m5"
      })
  void parse_badText_namesFieldAndText(String text) {
    assertThatThrownBy(() -> DurationText.parse("retry.cooldown", text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("retry.cooldown: ");
  }

  @org.junit.jupiter.api.Test
  void parse_unknownUnit_saysUnknownUnit() {
    assertThatThrownBy(() -> DurationText.parse("queues.emails.retry.cooldown", "5x"))
        .hasMessageContaining("unknown duration unit \"x\"");
  }

  @ParameterizedTest
  @CsvSource({
    "PT0S,0s",
    "PT0.5S,500ms",
    "PT30S,30s",
    "PT5M,5m",
    "PT2H,2h",
    "PT48H,2d",
    "PT90S,1m30s",
    "PT1M4.555S,1m4s555ms",
    "PT2H30M,2h30m",
    "PT26H,1d2h",
    "PT25H0.001S,1d1h1ms",
    "-PT1M4S,-1m4s"
  })
  void format_writesCompoundFormLargestFirst(String iso, String text) {
    assertThat(DurationText.format(Duration.parse(iso))).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({
    "0,0s",
    "555,555ms",
    "4555,4s555ms",
    "60000,1m",
    "64555,1m4s",
    "9000000,2h30m",
    "9059999,2h30m",
    "90061001,1d1h",
    "-64555,-1m4s"
  })
  void formatApproximate_keepsTheTwoLargestUnits(long millis, String text) {
    assertThat(DurationText.formatApproximate(Duration.ofMillis(millis))).isEqualTo(text);
  }

  @ParameterizedTest
  @ValueSource(
      longs = {0, 1, 999, 1000, 64_555, 3_600_000, 86_400_001, 90_061_001, 123_456_789_012L})
  void format_thenParse_roundTrips(long millis) {
    Duration d = Duration.ofMillis(millis);
    assertThat(DurationText.parse("f", DurationText.format(d))).isEqualTo(d);
  }

  @org.junit.jupiter.api.Test
  void parse_overflowingAmount_saysTooLong() {
    assertThatThrownBy(() -> DurationText.parse("delay", "999999999999d"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("delay: duration \"999999999999d\" is too long");
  }

  @org.junit.jupiter.api.Test
  void parse_unitsOutOfOrder_saysLargestFirst() {
    assertThatThrownBy(() -> DurationText.parse("wait", "30s1m"))
        .hasMessageContaining("wait: invalid duration \"30s1m\": write units largest first");
  }
}
