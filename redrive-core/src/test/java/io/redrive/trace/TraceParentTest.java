package io.redrive.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class TraceParentTest {
  private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  @Test
  void parse_aValidHeader_givesItsParts() {
    assertThat(TraceParent.parse(VALID))
        .contains(new TraceParent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", true));
    assertThat(TraceParent.parse(VALID.replace("-01", "-00")).orElseThrow().sampled()).isFalse();
  }

  @Test
  void parse_aLaterVersionWithMoreFields_isAccepted() {
    assertThat(TraceParent.parse("01" + VALID.substring(2) + "-what-comes-next")).isPresent();
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(
      strings = {
        "",
        "junk",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        "<script>-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
      })
  void parse_anInvalidHeader_givesNothing(String value) {
    assertThat(TraceParent.parse(value)).isEmpty();
  }

  @Test
  void traceIdOf_readsTheTraceparentHeader() {
    assertThat(TraceParent.traceIdOf(Map.of("traceparent", VALID)))
        .contains("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(TraceParent.traceIdOf(Map.of("other", VALID))).isEmpty();
    assertThat(TraceParent.traceIdOf(null)).isEmpty();
  }
}
