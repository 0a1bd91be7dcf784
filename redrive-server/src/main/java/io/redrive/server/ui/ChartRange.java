package io.redrive.server.ui;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The time range of the overview's and queue page's throughput charts, chosen with {@code ?range=}:
 * from 15 minutes to the 24 hours the engine keeps counters for ({@link
 * io.redrive.Redrive#MAX_THROUGHPUT_WINDOW}). One hour when the page does not say.
 */
public enum ChartRange {
  /** The last 15 minutes. */
  M15("15m", Duration.ofMinutes(15), "last 15 minutes"),
  /** The last hour, the default. */
  H1("1h", Duration.ofHours(1), "last hour"),
  /** The last 6 hours. */
  H6("6h", Duration.ofHours(6), "last 6 hours"),
  /** The last 24 hours. */
  H24("24h", Duration.ofHours(24), "last 24 hours");

  private final String param;
  private final Duration window;
  private final String words;

  ChartRange(String param, Duration window, String words) {
    this.param = param;
    this.window = window;
    this.words = words;
  }

  /** The value of {@code ?range=}, e.g. {@code 24h}. */
  public String param() {
    return param;
  }

  /** The window read from the throughput counters. */
  public Duration window() {
    return window;
  }

  /** The range in words, for the section's heading: {@code last 24 hours}. */
  public String words() {
    return words;
  }

  /** The range {@code r} asks for; an unknown value is refused, naming the parameter. */
  static ChartRange of(UiRequest r) {
    String value = r.query("range");
    if (value == null || value.isBlank()) {
      return H1;
    }
    for (ChartRange range : values()) {
      if (range.param.equals(value.strip().toLowerCase(Locale.ROOT))) {
        return range;
      }
    }
    throw new IllegalArgumentException(
        "range: one of "
            + Arrays.stream(values()).map(ChartRange::param).collect(Collectors.joining(", "))
            + ", was \""
            + value
            + "\"");
  }
}
