package io.redrive.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class TimelineTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void render_history_printsOneAlignedLinePerEntryOldestFirst() throws Exception {
    String history =
        "[{\"attempt\":1,\"outcome\":\"FAILED\",\"worker\":\"w1\","
            + "\"leasedAt\":\"2030-01-01T00:00:00Z\",\"settledAt\":\"2030-01-01T00:00:00.250Z\","
            + "\"failure\":{\"reason\":\"HANDLER_EXCEPTION\",\"message\":\"boom\",\"retryable\":true}},"
            + "{\"attempt\":2,\"outcome\":\"LEASE_EXPIRED\",\"worker\":\"w2\","
            + "\"leasedAt\":\"2030-01-01T00:01:00Z\",\"settledAt\":\"2030-01-01T00:01:30Z\"},"
            + "{\"attempt\":3,\"outcome\":\"POISONED\",\"worker\":null,"
            + "\"leasedAt\":null,\"settledAt\":\"2030-01-01T00:02:00Z\","
            + "\"failure\":{\"reason\":\"POISON\",\"message\":\"exceeded 3 attempts (max 2)\",\"retryable\":false}},"
            + "{\"attempt\":0,\"outcome\":\"RETRIED\",\"worker\":\"cli\","
            + "\"settledAt\":\"2030-01-01T01:00:00Z\",\"note\":\"retried by operator\"}]";

    String text = Timeline.render(JSON.readTree(history));

    assertThat(text.lines())
        .containsExactly(
            "  2030-01-01 00:00:00.250Z  #1  FAILED         w1   HANDLER_EXCEPTION: boom              ran 250ms",
            "  2030-01-01 00:01:30.000Z  #2  LEASE_EXPIRED  w2                                        ran 30s",
            "  2030-01-01 00:02:00.000Z  #3  POISONED       -    POISON: exceeded 3 attempts (max 2)  not retryable",
            "  2030-01-01 01:00:00.000Z  #0  RETRIED        cli                                       retried by operator");
  }

  @Test
  void render_emptyHistory_saysSo() throws Exception {
    assertThat(Timeline.render(JSON.readTree("[]"))).isEqualTo("  (no attempts yet)\n");
  }
}
