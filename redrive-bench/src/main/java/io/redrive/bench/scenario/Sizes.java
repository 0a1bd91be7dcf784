package io.redrive.bench.scenario;

import java.time.Duration;
import java.util.List;

/**
 * How big each scenario runs: message counts, client counts and durations for one profile.
 *
 * @param producers producer counts of the enqueue scenario
 * @param enqueueSingle messages per run, one per transaction
 * @param enqueueBatch messages per run, 100 per transaction
 * @param workers worker counts of the drain scenario
 * @param leaseBatches lease batch sizes of the drain scenario
 * @param drainPerBatch1 backlog per run at lease batch 1 (batch 10: ×3, batch 100: ×10)
 * @param failureCount messages per failure-path run
 * @param failureBatches lease batches of the failure path (4 workers)
 * @param streams stream count of the streams scenario
 * @param perStream messages per stream
 * @param depthSizes ready backlog sizes of the depth scenario
 * @param depthOps lease+complete operations measured per depth run
 * @param steadySeconds duration of each steady-state run
 * @param steadyCalibration how long producers and workers run together to measure the end-to-end
 *     capacity the steady state's rates are set from
 */
public record Sizes(
    List<Integer> producers,
    int enqueueSingle,
    int enqueueBatch,
    List<Integer> workers,
    List<Integer> leaseBatches,
    int drainPerBatch1,
    int failureCount,
    List<Integer> failureBatches,
    int streams,
    int perStream,
    List<Long> depthSizes,
    int depthOps,
    Duration steadySeconds,
    Duration steadyCalibration) {

  /** Seconds, not minutes: every cell small enough for CI. */
  public static Sizes smoke() {
    return new Sizes(
        List.of(1, 4),
        200,
        2_000,
        List.of(1, 4),
        List.of(1, 10, 100),
        100,
        400,
        List.of(10),
        1_000,
        2,
        List.of(1_000L, 10_000L),
        100,
        Duration.ofSeconds(3),
        Duration.ofSeconds(2));
  }

  /** The sizes where a 2-core machine finishes in well under an hour. */
  public static Sizes full() {
    return new Sizes(
        List.of(1, 4, 8),
        5_000,
        50_000,
        List.of(1, 4, 8),
        List.of(1, 10, 100),
        3_000,
        10_000,
        List.of(10, 100),
        1_000,
        10,
        List.of(10_000L, 1_000_000L),
        2_000,
        Duration.ofSeconds(120),
        Duration.ofSeconds(20));
  }

  /** Message counts (not client counts, depth sizes or durations) multiplied by {@code f}. */
  public Sizes scaled(double f) {
    return new Sizes(
        producers,
        scale(enqueueSingle, f),
        scale(enqueueBatch, f),
        workers,
        leaseBatches,
        scale(drainPerBatch1, f),
        scale(failureCount, f),
        failureBatches,
        streams,
        (int) Math.max(2, Math.round(perStream * f)),
        depthSizes,
        scale(depthOps, f),
        steadySeconds,
        steadyCalibration);
  }

  public Sizes withDepthSizes(List<Long> value) {
    return new Sizes(
        producers,
        enqueueSingle,
        enqueueBatch,
        workers,
        leaseBatches,
        drainPerBatch1,
        failureCount,
        failureBatches,
        streams,
        perStream,
        value,
        depthOps,
        steadySeconds,
        steadyCalibration);
  }

  public Sizes withSteady(Duration value) {
    return new Sizes(
        producers,
        enqueueSingle,
        enqueueBatch,
        workers,
        leaseBatches,
        drainPerBatch1,
        failureCount,
        failureBatches,
        streams,
        perStream,
        depthSizes,
        depthOps,
        value,
        steadyCalibration);
  }

  /** Backlog of one drain run at lease batch {@code batch}. */
  public int drainCount(int batch) {
    return batch >= 100 ? drainPerBatch1 * 10 : batch >= 10 ? drainPerBatch1 * 3 : drainPerBatch1;
  }

  private static int scale(int n, double f) {
    return (int) Math.max(100, Math.round(n * f / 100.0) * 100);
  }
}
