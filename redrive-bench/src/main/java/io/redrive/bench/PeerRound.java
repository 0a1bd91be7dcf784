package io.redrive.bench;

import java.util.Locale;

/**
 * One measured round of one system in {@link WorkflowPeers} or {@link QueuePeers}, as a child JVM
 * prints it on one line and the runner reads it back. Per-unit figures (per workflow, or per
 * message) are NaN where the server keeps no statement statistics.
 *
 * @param system {@code redrive}, {@code dbos}, {@code dbos-queue}, {@code db-scheduler}, {@code
 *     raw}
 * @param shape {@code 3 steps} or {@code fan-out N}; a queue cell such as {@code drain-16x10}
 * @param instances instances started and completed, or messages enqueued or drained
 * @param seconds from the first start to the last completion
 * @param p50Ms an instance's start to end (as its system stored them), median, milliseconds; NaN
 *     for a queue cell
 * @param p99Ms the same, 99th percentile
 * @param statements statements per workflow (beyond a one-instance round's) or per message
 * @param commits commits per workflow or message, as statements
 * @param walBytes WAL bytes per workflow or message, as statements
 */
public record PeerRound(
    String system,
    String shape,
    int instances,
    double seconds,
    double p50Ms,
    double p99Ms,
    double statements,
    double commits,
    double walBytes) {
  static final String PREFIX = "ROUND|";

  public double instancesPerSecond() {
    return instances / seconds;
  }

  /** The line a child prints. */
  String line() {
    return String.format(
        Locale.ROOT,
        "%s%s|%s|%d|%.6f|%.1f|%.1f|%.3f|%.3f|%.1f",
        PREFIX,
        system,
        shape,
        instances,
        seconds,
        p50Ms,
        p99Ms,
        statements,
        commits,
        walBytes);
  }

  /** The round a child's line describes. */
  static PeerRound parse(String line) {
    String[] f = line.substring(PREFIX.length()).split("\\|");
    if (f.length != 9) {
      throw new IllegalArgumentException("not a round line: " + line);
    }
    return new PeerRound(
        f[0],
        f[1],
        Integer.parseInt(f[2]),
        Double.parseDouble(f[3]),
        Double.parseDouble(f[4]),
        Double.parseDouble(f[5]),
        Double.parseDouble(f[6]),
        Double.parseDouble(f[7]),
        Double.parseDouble(f[8]));
  }
}
