package io.redrive.bench;

import java.util.List;
import java.util.Map;

/**
 * One run of one side of a cell.
 *
 * @param value the headline figure (messages or operations per second)
 * @param details further figures of the run (latency percentiles, sizes), numbers or lists
 * @param checks correctness checks made in the run
 */
public record Measurement(double value, Map<String, Object> details, List<Check> checks) {

  public Measurement {
    details = details == null ? Map.of() : details;
    checks = checks == null ? List.of() : List.copyOf(checks);
  }

  /** A run with just a throughput. */
  public static Measurement of(long messages, long nanos) {
    return new Measurement(perSecond(messages, nanos), Map.of(), List.of());
  }

  /** {@code count} per second over {@code nanos}. */
  public static double perSecond(long count, long nanos) {
    return nanos <= 0 ? 0 : count * 1e9 / nanos;
  }
}
