package io.redrive.bench.scenario;

import java.util.Arrays;

/** Recorded durations in nanoseconds, with percentiles in milliseconds. Thread-safe. */
final class Latencies {
  private long[] values = new long[1024];
  private int size;

  synchronized void add(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
  }

  synchronized int size() {
    return size;
  }

  /** The {@code p}-th percentile (0–100) in milliseconds, NaN when empty. */
  synchronized double percentileMillis(double p) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p / 100.0 * size) - 1;
    return sorted[Math.max(0, Math.min(size - 1, index))] / 1e6;
  }
}
