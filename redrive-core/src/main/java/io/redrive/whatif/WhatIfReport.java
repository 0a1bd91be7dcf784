package io.redrive.whatif;

import java.time.Duration;
import java.util.Map;

/**
 * What a {@link RetryCandidate} would have done to a queue's recorded stories.
 *
 * @param replayed the stories replayed (those with at least one recorded attempt)
 * @param skipped stories without a recorded attempt (e.g. expired before their first lease)
 * @param recorded how the replayed stories ended as recorded, by end
 * @param candidate how they end under the candidate, by end
 * @param newlyCompleted stories that died as recorded and complete under the candidate
 * @param newlyDead stories that completed as recorded and die under the candidate
 * @param assumed stories whose replay needed attempts the record lacks: each such attempt is
 *     assumed to end as the last recorded one did
 * @param shift how much later (positive) or earlier the stories that complete both ways complete
 */
public record WhatIfReport(
    int replayed,
    int skipped,
    Map<WhatIfEnd, Integer> recorded,
    Map<WhatIfEnd, Integer> candidate,
    int newlyCompleted,
    int newlyDead,
    int assumed,
    Shift shift) {

  /**
   * Completion time shifts: candidate completion minus recorded completion, over the stories that
   * complete both ways. Percentiles are nearest-rank; all null when {@code count} is 0.
   */
  public record Shift(
      int count,
      Duration total,
      Duration min,
      Duration p50,
      Duration p90,
      Duration p99,
      Duration max) {}
}
