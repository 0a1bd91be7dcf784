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
  @ValueSource(strings = {"", "x", "5", "5x", "-5s", "1.5s", "s"})
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
  @CsvSource({"PT0.5S,500ms", "PT30S,30s", "PT5M,5m", "PT2H,2h", "PT48H,2d", "PT90S,90s"})
  void format_usesLargestExactUnit(String iso, String text) {
    assertThat(DurationText.format(Duration.parse(iso))).isEqualTo(text);
  }
}
